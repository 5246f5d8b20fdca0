// defineChatElement: registers <toolnexus-chat> (a chat on createRunSession — messages, streaming text, the
// calls being run, every open Request as a card, a composer and a Stop button while streaming).
import { chatElementClass } from "./chat-element";

/**
 * Registers the chat element under `tag` (once; a second call returns the class already registered) and
 * returns its class. Call it in a page, never in a Worker or on a server.
 */
export function defineChatElement(tag = "toolnexus-chat"): CustomElementConstructor {
  const known = customElements.get(tag);
  if (known) return known;
  const element = chatElementClass();
  customElements.define(tag, element);
  return element;
}
