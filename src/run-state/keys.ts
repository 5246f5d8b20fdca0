// Where a run and a conversation live in a RunStorage: one key each, never shared with anything else.
export const runKey = (runId: string): string => `run:${runId}`;
export const conversationKey = (id: string): string => `conversation:${id}`;
