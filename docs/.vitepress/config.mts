// The docs site: VitePress with local search, every ts/tsx block type-checked by twoslash against the
// package's own built types (`npm run build` first; a block that no longer compiles fails the build), and
// the API reference TypeDoc generates from the declarations (docs/.vitepress/build.mjs runs both).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { transformerTwoslash } from "@shikijs/vitepress-twoslash";
import { defineConfig, type DefaultTheme } from "vitepress";

const docs = fileURLToPath(new URL("../", import.meta.url));

/** Pages written on other branches appear once their file exists, so the site builds without them. */
const page = (text: string, link: string): DefaultTheme.SidebarItem[] =>
  existsSync(`${docs}${link}.md`) ? [{ text, link: `/${link}` }] : [];

const apiSidebar = (): DefaultTheme.SidebarItem[] => {
  const file = `${docs}api/typedoc-sidebar.json`;
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as DefaultTheme.SidebarItem[]) : [];
};

const guide: DefaultTheme.SidebarItem[] = [
  {
    text: "Start",
    items: [
      ...page("Quickstart", "guide/quickstart"),
      ...page("Tools", "guide/tools"),
      ...page("Suspensions", "guide/suspensions"),
      ...page("Approvals", "guide/approvals"),
      ...page("Agents", "guide/agents"),
      ...page("Storage", "guide/storage"),
    ],
  },
  {
    text: "Web and edge",
    items: [
      ...page("Edge handler and page session", "guide/edge"),
      ...page("Streams", "guide/streams"),
      ...page("Events and content", "guide/events-and-content"),
      ...page("The chat widget", "guide/widget"),
      ...page("React", "guide/react"),
      ...page("Behind the UI you already have", "guide/interop"),
    ],
  },
  {
    text: "Going further",
    items: [
      ...page("Providers and wires", "guide/providers"),
      ...page("MCP", "guide/mcp"),
      ...page("Errors", "guide/errors"),
      ...page("Telemetry", "guide/telemetry"),
      ...page("Reliability", "guide/reliability"),
      ...page("In production", "guide/production"),
      ...page("Recipes", "guide/recipes"),
    ],
  },
];

export default defineConfig({
  title: "toolnexus",
  description: "A human-in-the-loop LLM tool-calling loop for browsers, Workers, Deno and Node",
  cleanUrls: true,
  head: [["link", { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }]],
  themeConfig: {
    search: { provider: "local" },
    nav: [
      { text: "Guide", link: "/guide/quickstart" },
      { text: "API", link: "/api/" },
    ],
    sidebar: { "/guide/": guide, "/api/": [{ text: "API reference", items: apiSidebar() }], "/": guide },
  },
  markdown: {
    codeTransformers: [
      transformerTwoslash({
        explicitTrigger: false, // every ts/tsx block is checked, not only those marked `twoslash`
        langs: ["ts", "tsx"],
        twoslashOptions: {
          compilerOptions: { module: 99 /* ESNext */, moduleResolution: 100 /* Bundler */, types: ["node"] },
        },
      }),
    ],
    languages: ["js", "ts", "tsx", "json", "sh", "html", "toml"],
  },
});
