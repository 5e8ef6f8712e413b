import { playgroundScript } from './playground-script.ts'
import { playgroundForms } from './playground-forms.ts'
import { playgroundViews } from './playground-views.ts'
import { playgroundRuns } from './playground-runs.ts'
import { playgroundSession } from './playground-session.ts'
import { playgroundTokenPrompt } from './playground-token-prompt.ts'

// One document, styles and script inline: the Worker serves it alone (no CDN, no asset binding).
const style = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#5b6470;--bg:#fff;--panel:#f5f6f8;--line:#d5d9df;--accent:#0b5fff;--good:#107a3e;--bad:#b3261e;font:15px/1.45 system-ui,sans-serif}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--muted:#9aa3ad;--bg:#14171a;--panel:#1d2126;--line:#343a41;--accent:#6ea0ff;--good:#5cc98a;--bad:#ff8a80}}
*{box-sizing:border-box}body{margin:0;color:var(--fg);background:var(--bg)}
header{padding:.6rem 1rem;border-bottom:1px solid var(--line);display:flex;gap:1rem;align-items:center;flex-wrap:wrap}#token-panel{display:flex;gap:.5rem;align-items:center}#token-panel input{width:16rem}h1{font-size:1.1rem;margin:0}h2{font-size:1rem;margin:.2rem 0 .5rem}
.layout{display:grid;grid-template-columns:minmax(14rem,20rem) 1fr;min-height:calc(100vh - 3rem)}
nav{border-right:1px solid var(--line);padding:.75rem;background:var(--panel);overflow:auto}
nav ul{list-style:none;margin:0 0 1rem;padding:0}nav li{margin:0 0 .5rem}
main{padding:.75rem 1rem;display:grid;gap:1rem;grid-template-columns:1fr 1fr;align-items:start;min-width:0}
main>section{min-width:0}
@media (max-width:1100px){main{grid-template-columns:1fr}}
@media (max-width:720px){.layout{grid-template-columns:1fr}nav{border-right:0;border-bottom:1px solid var(--line);max-height:40vh}}
button{font:inherit;padding:.35rem .8rem;border:1px solid var(--line);border-radius:.35rem;background:var(--bg);color:var(--fg);cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}button.small{padding:.1rem .5rem;font-size:.85rem}
button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
button.tool,button.run{width:100%;text-align:left;font-family:ui-monospace,monospace}
button[aria-current=true]{border-color:var(--accent);box-shadow:inset 3px 0 0 var(--accent)}
.about,nav small,.hint{display:block;color:var(--muted);font-size:.85rem;margin:.15rem 0 0 .2rem}
.badges{display:inline-flex;flex-wrap:wrap;gap:.25rem;margin-left:.35rem}
.badge{font-size:.72rem;padding:0 .4rem;border-radius:1rem;border:1px solid var(--line);color:var(--fg)}
.badge.approval,.badge.destructive{border-color:var(--bad);color:var(--bad)}.badge.background,.badge.suspends{border-color:var(--accent);color:var(--accent)}
.editors{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}@media (max-width:560px){.editors{grid-template-columns:1fr}}
fieldset{border:1px solid var(--line);border-radius:.4rem;margin:0 0 .6rem;padding:.4rem .6rem;min-width:0}legend{font-weight:600;padding:0 .3rem}
.field{margin:0 0 .5rem}.field label,.block{display:block;font-weight:500;margin-bottom:.15rem}.field.check label{display:inline;margin-left:.3rem}.field.inline{display:inline-block;margin:0 .5rem}
.field.inline label{display:inline;margin-right:.3rem}
input[type=text],input[type=number],input:not([type]),select,textarea{width:100%;font:inherit;padding:.3rem .4rem;border:1px solid var(--line);border-radius:.3rem;background:var(--bg);color:var(--fg)}
textarea{font-family:ui-monospace,monospace;font-size:.85rem;min-height:6rem}.field.inline input{width:12rem}
ol.items{padding-left:1.2rem}.views{display:flex;gap:1rem;align-items:center}.views label{margin-right:.6rem}
#error:not(:empty){border:1px solid var(--bad);color:var(--bad);border-radius:.4rem;padding:.5rem;margin:.5rem 0}.code{font-family:ui-monospace,monospace}
#waiting>p:first-child{margin-top:0}.title{display:flex;gap:.5rem;align-items:baseline;flex-wrap:wrap}#tool-description{margin-top:.2rem}
#waiting:not(:empty){border:1px solid var(--accent);border-radius:.4rem;padding:.5rem;margin:.5rem 0}
#timeline{list-style:none;margin:0;padding:0}.event{border-left:3px solid var(--line);padding:.2rem .5rem;margin:0 0 .35rem;background:var(--panel)}
.event.good{border-color:var(--good)}.event.bad{border-color:var(--bad)}.event.preliminary{border-style:dashed}
.seq{color:var(--muted);margin-right:.4rem;font-size:.8rem}.type{font-family:ui-monospace,monospace;font-weight:600;font-size:.85rem}
pre{margin:.2rem 0 0;white-space:pre-wrap;word-break:break-word;font-size:.82rem}pre:empty{display:none}
#server-runs{list-style:none;padding:0}#server-runs li{margin:0 0 .5rem}#server-runs .small{margin:.2rem .3rem 0 0}
#trace{list-style:none;margin:0;padding:0}.phase{display:flex;gap:.5rem;align-items:center;padding:.15rem .4rem;border-left:3px solid var(--line);margin:0 0 .2rem}
.phase.wait{border-color:var(--accent)}.phase.end{border-color:var(--good)}.phase.bad{border-color:var(--bad)}.phase .label{font-family:ui-monospace,monospace;font-size:.85rem;min-width:8rem}
.phase .bar{height:.55rem;background:var(--accent);border-radius:.2rem;max-width:50%}.phase .duration{color:var(--muted);font-size:.8rem}
`

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/**
 * The playground (SPEC §10): a page for trying the app's tools from a browser, served at `GET /`.
 * It lists the tools, draws a form from the selected tool's input schema beside a raw JSON editor,
 * calls the tool streaming and shows each event in a `role="log"` timeline, answers a waiting run
 * (approve, decline, resume), replays past runs from the events route, and lists the caller's runs
 * on the server with a timeline of one (`playgroundRuns`), and keeps the token of an app with auth (`playgroundSession`;
 * `tokenPrompt` renders what a browser refused the page sees instead: a form for that token).
 */
export function playgroundPage(options: { base: string; auth?: boolean; tokenPrompt?: boolean }): string {
  if (options.tokenPrompt) return playgroundTokenPrompt()
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolroute playground</title>
<link rel="icon" href="data:,">
<style>${style}</style>
</head>
<body data-base="${escapeAttribute(options.base)}"${options.auth ? ' data-auth' : ''}>
<header><h1>toolroute playground</h1><div id="token-panel"></div></header>
<div class="layout">
<nav aria-label="Tools and runs">
<h2 id="tools-title">Tools</h2>
<ul id="tools" aria-labelledby="tools-title"></ul>
<h2 id="runs-title">Past runs</h2>
<ul id="runs" aria-labelledby="runs-title"></ul>
<h2 id="server-runs-title">Runs on the server</h2>
<div id="server-runs-panel"></div>
</nav>
<main>
<section aria-labelledby="tool-title">
<div class="title"><h2 id="tool-title">Loading tools…</h2><div id="tool-badges"></div></div>
<p id="tool-description"></p>
<form id="call" novalidate hidden>
<div class="editors">
<fieldset id="input-form"><legend>Input</legend></fieldset>
<div><label class="block" for="raw-input">Input (JSON)</label><textarea id="raw-input" rows="10" spellcheck="false"></textarea></div>
</div>
<label class="block" for="request-context">Request context (JSON)</label>
<textarea id="request-context" rows="3" spellcheck="false"></textarea>
<fieldset class="views"><legend>View</legend>
<label><input type="radio" name="view" value="display" checked> display</label>
<label><input type="radio" name="view" value="raw"> raw</label>
<label><input type="radio" name="view" value="transcript"> transcript</label>
</fieldset>
<button type="submit" class="primary">Run</button>
</form>
</section>
<section aria-labelledby="run-title">
<h2 id="run-title">Run</h2>
<p id="run-status" role="status"></p>
<div id="error" role="alert"></div>
<div id="waiting"></div>
<div id="log" role="log" aria-label="Events" aria-live="polite" aria-busy="false"><ol id="timeline"></ol></div>
</section>
<section aria-labelledby="trace-title">
<h2 id="trace-title">Timeline</h2>
<p id="trace-total" class="hint"></p>
<ol id="trace" aria-label="Timeline"></ol>
</section>
</main>
</div>
<script type="module">(${playgroundScript.toString()})(${[playgroundForms, playgroundViews, playgroundRuns, playgroundSession].map(String).join(', ')})</script>
</body>
</html>
`
}
