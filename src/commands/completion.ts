/**
 * `docproc completion bash|zsh|fish`: a shell completion script generated from the command map.
 *
 * Not oclif's @oclif/plugin-autocomplete: that plugin builds its scripts from `config.commands`, which oclif fills
 * by discovering plugins and their manifests on disk; docproc's commands come from an explicit map that also works
 * inside the compiled binary (src/commands/index.ts), so the plugin would see no commands. Its scripts also call
 * back into the CLI and cache files under the user's cache directory at set-up. The script here is printed whole,
 * from the same map the dispatcher uses, so it cannot list a command that does not exist.
 */
import { Args, Command } from "@oclif/core";

export function completionCommand(commands: () => Record<string, Command.Class>): Command.Class {
  return class CompletionCommand extends Command {
    static summary = "Print a shell completion script (bash, zsh or fish)";
    static description =
      "Completes commands, topic verbs (docproc mail <TAB>), flags and the values of flags with fixed options. " +
      'bash: eval "$(docproc completion bash)" in ~/.bashrc; zsh: eval "$(docproc completion zsh)" in ~/.zshrc ' +
      "after compinit; fish: docproc completion fish > ~/.config/fish/completions/docproc.fish.";
    static examples = [
      "<%= config.bin %> completion bash >> ~/.bashrc",
      "<%= config.bin %> completion fish > ~/.config/fish/completions/docproc.fish",
    ];
    static args = {
      shell: Args.string({ description: "the shell", required: true, options: ["bash", "zsh", "fish"] }),
    };

    async run(): Promise<number> {
      const { args } = await this.parse(CompletionCommand);
      const c = await import("../cli/completion");
      const entries: import("../cli/completion").CompletionEntry[] = Object.entries(commands()).map(([id, Cmd]) => ({
        words: id.split(":"),
        summary: Cmd.summary ?? "",
        flags: Object.entries(Cmd.flags ?? {}).map(([name, f]) => ({
          name,
          char: (f as { char?: string }).char,
          options: (f as { options?: string[] }).options,
          takesValue: (f as { type: string }).type === "option",
          summary: ((f as { description?: string }).description ?? "").split("\n")[0]!,
        })),
      }));
      const script = args.shell === "bash" ? c.bashScript : args.shell === "zsh" ? c.zshScript : c.fishScript;
      process.stdout.write(script(entries));
      return 0;
    }
  };
}
