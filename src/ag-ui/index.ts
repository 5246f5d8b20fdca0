// toolnexus/ag-ui: an AG-UI 1.0 endpoint (CopilotKit, assistant-ui, `HttpAgent`) in front of a client.
export { createAgUiHandler, type AgUiHandlerOptions } from "../edge/ag-ui-handler";
export type { AgUiEvent, Interrupt, ResumeEntry } from "../protocol/ag-ui";
