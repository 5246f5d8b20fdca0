// Every string the chat element and renderRequest show, in English; a page passes its own (`strings`),
// merged over these, for another language or another voice.

export interface ChatStrings {
  send: string;
  stop: string;
  messageLabel: string;
  messagePlaceholder: string;
  empty: string;
  logLabel: string;
  kindInput: string;
  kindQuestion: string;
  kindApproval: string;
  kindAuthorization: string;
  kindToolCall: string;
  kindOther: string;
  approve: string;
  decline: string;
  alwaysAllow: string;
  reasonLabel: string;
  approved: string;
  declined: string;
  alwaysAllowed: string;
  reply: string;
  skip: string;
  skipped: string;
  answerLabel: string;
  answerPlaceholder: string;
  submit: string;
  choose: string;
  yes: string;
  no: string;
  formSent: string;
  formDeclined: string;
  signIn: string;
  signedIn: string;
  signedInText: string;
  cancel: string;
  cancelledText: string;
  resultLabel: string;
  toolPreparing: string;
  toolRunning: string;
  toolWaiting: string;
  toolDone: string;
  toolFailed: string;
  error: string;
  conflict: string;
  gone: string;
  /** A question's deadline: `{time}` is when, relative to now ("in 5 minutes"). */
  expiresIn: string;
  /** A question whose deadline passed: the run goes on without the answer. */
  expired: string;
  busy: string;
  /** The muted mark after the text of an exchange that was stopped (here or in another tab). */
  stopped: string;
  /** Which agent asks, on a sub-agent's Request (`data.path`): `{agent}` is its name ("booker"). */
  askedBy: string;
}

export const DEFAULT_STRINGS: ChatStrings = {
  send: "Send",
  stop: "Stop",
  messageLabel: "Message",
  messagePlaceholder: "Type a message…",
  empty: "Ask for something a tool can only do with your help.",
  logLabel: "Conversation",
  kindInput: "Needs your input",
  kindQuestion: "Question",
  kindApproval: "Needs your approval",
  kindAuthorization: "Sign-in needed",
  kindToolCall: "Tool calls to run",
  kindOther: "Request",
  approve: "Approve",
  decline: "Decline",
  alwaysAllow: "Always allow",
  reasonLabel: "Reason (optional)",
  approved: "Approved",
  declined: "Declined",
  alwaysAllowed: "Always allowed",
  reply: "Reply",
  skip: "Skip",
  skipped: "Skipped",
  answerLabel: "Your answer",
  answerPlaceholder: "Type your answer…",
  submit: "Submit",
  choose: "Choose…",
  yes: "yes",
  no: "no",
  formSent: "Sent the form",
  formDeclined: "Declined the form",
  signIn: "Sign in ↗",
  signedIn: "I've signed in — continue",
  signedInText: "Signed in",
  cancel: "Cancel",
  cancelledText: "Cancelled sign-in",
  resultLabel: "Result",
  toolPreparing: "preparing…",
  toolRunning: "running…",
  toolWaiting: "waiting for you",
  toolDone: "done",
  toolFailed: "failed",
  error: "Something went wrong:",
  conflict: "That question was already answered (perhaps in another tab) — nothing ran twice.",
  gone: "That question is no longer open — it was answered or it expired.",
  expiresIn: "Expires {time}.",
  expired: "This question expired; the conversation goes on without an answer.",
  busy: "Your previous message is still being answered, or was cut off — try again in a few seconds.",
  stopped: "Stopped",
  askedBy: "Asked by {agent}",
};

/** The defaults with a page's own strings over them; anything that is not a string is ignored. */
export function mergeStrings(own: Partial<ChatStrings> | undefined): ChatStrings {
  const out = { ...DEFAULT_STRINGS };
  for (const [key, value] of Object.entries(own ?? {}))
    if (key in out && typeof value === "string") out[key as keyof ChatStrings] = value;
  return out;
}
