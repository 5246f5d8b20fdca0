// The page half as one tag: <toolnexus-chat endpoint="/api/run"> draws the conversation and every open
// Request as what fits its kind (an Approve / Decline for worker.ts's deploy), and finds it again after a
// reload. The page only registers the element and, here, words two of its strings its own way.
import { type ChatElement, defineChatElement } from "toolnexus/widget";

defineChatElement();
const chat = document.createElement("toolnexus-chat") as ChatElement;
chat.endpoint = "/api/run";
chat.strings = { messagePlaceholder: "Ask to deploy the release…", approve: "Deploy" };
document.body.append(chat);
