/** The family's name rule: anything outside `[a-zA-Z0-9_-]` becomes `_` (per UTF-16 code unit). */
export const sanitize = (value: string): string => value.replace(/[^a-zA-Z0-9_-]/g, "_");

/** The name an MCP tool is declared to the model under: `sanitize(server) + "_" + sanitize(tool)`. */
export const toolName = (server: string, tool: string): string => `${sanitize(server)}_${sanitize(tool)}`;
