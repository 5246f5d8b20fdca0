// The page's entry: one Chat against the run endpoint (a createRunHandler, e.g. examples/edge/chat.ts).
// StrictMode is safe: the hook makes one session per component and restores it once.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Chat } from "./chat";

const root = document.getElementById("app");
if (root)
  createRoot(root).render(
    <StrictMode>
      <Chat endpoint="/api/run" />
    </StrictMode>,
  );
