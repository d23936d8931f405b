"use strict";
// Starts Swagger UI (swagger-ui-bundle.js, served by this server) on this server's OpenAPI document. Everything is
// addressed relative to this script (…/api-docs/explorer.js), so the page works under a proxy prefix; the
// document's `servers` carries the prefix for the requests "Try it out" sends.
(function () {
  var here = document.currentScript.src;
  window.ui = window.SwaggerUIBundle({
    url: new URL("openapi.json", here).href,
    dom_id: "#swagger-ui",
    deepLinking: true,
    // Forms are editable at once; required path parameters must be filled before Execute sends anything.
    tryItOutEnabled: true,
    // Swagger UI's default validator badge calls an outside service: off (nothing leaves this server).
    validatorUrl: null,
    displayRequestDuration: true,
    filter: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    showExtensions: true,
    // A curl command for every request sent (bash, PowerShell, cmd).
    requestSnippetsEnabled: true,
    requestSnippets: { defaultExpanded: true },
    syntaxHighlight: { activated: true, theme: "agate" },
  });
})();
