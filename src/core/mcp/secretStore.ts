// Where MCP secrets are kept — `${input:id}` answers, OAuth tokens and clients: VS Code's
// SecretStorage in the extension, a 0600 file under PEON_STATE_DIR for the CLI. Keys
// name what they hold (`input:<server>:<id>`; `oauth:<server url>`, a server's OAuth client and tokens).
export interface McpSecretStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}
