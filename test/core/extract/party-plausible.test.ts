/**
 * What can be a party's name (extract/candidate.ts `plausible`): an address's postcode-and-town line is none, a
 * company whose name starts with a number is one. A window whose name holds a party word ("Test Buyer GmbH") had the
 * label search take "Buyer" in the street under it as a heading and return the postcode line under that.
 */
import { expect, test } from "bun:test";
import { plausible } from "../../../src/core/extract/candidate";

test("a postcode and town is no party's name; a name that starts with a number and has a legal form is one", () => {
  for (const town of ["98765 Buyer City", "1012 AB Amsterdam", "SW1A 1AA London", "D-10115 Berlin", "114 55 Stockholm"])
    expect([town, plausible("party", town)]).toEqual([town, false]);
  for (const name of ["3M Deutschland GmbH", "10115 Berlin Software GmbH", "1&1 Internet SE", "Test Buyer GmbH"])
    expect([name, plausible("party", name)]).toEqual([name, true]);
});
