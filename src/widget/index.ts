// toolnexus/widget: a chat element any page can drop in, and the form of one Request for pages that draw
// their own chat. Built on createRunSession alone; importing it registers nothing.
export { defineChatElement } from "./define-chat-element";
export type { ChatElement, ToolCallView } from "./chat-element";
export { renderRequest } from "./render-request";
export type { RenderRequestOptions } from "./render-request";
export { DEFAULT_STRINGS } from "./strings";
export type { ChatStrings } from "./strings";
