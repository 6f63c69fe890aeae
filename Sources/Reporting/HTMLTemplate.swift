import Mustache

/// The Mustache template of `--report-html`: one self-contained page (inline CSS, no script, nothing fetched).
///
/// Every `{{value}}` is HTML-escaped by Mustache (with `Escaping`, which its first line names), so nothing a server
/// sent can become markup. The filter is CSS alone: radio buttons before the list hide the requests that do not match
/// the chosen one.
enum HTMLTemplate {
    /// The template, parsed, its escaping registered with Mustache first.
    static func parsed() throws -> MustacheTemplate {
        _ = escapingRegistered
        return try MustacheTemplate(string: page)
    }

    private static let escapingRegistered: Void = MustacheContentTypes.register(Escaping(), named: "RUNNER_HTML")

    /// Mustache's HTML escaping (`&`, `<`, `>`, `"` and `'` as entities) in one pass over UTF-8 bytes, where Mustache's
    /// own looks each Character up in a dictionary.
    struct Escaping: MustacheContentType {
        func escapeText(_ text: String) -> String {
            guard text.utf8.contains(where: { Self.entity(for: $0) != nil }) else { return text }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count + 16)
            for byte in text.utf8 {
                if let entity = Self.entity(for: byte) { bytes += entity.utf8 } else { bytes.append(byte) }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        private static func entity(for byte: UInt8) -> String? {
            switch byte {
            case UInt8(ascii: "&"): "&amp;"
            case UInt8(ascii: "<"): "&lt;"
            case UInt8(ascii: ">"): "&gt;"
            case UInt8(ascii: "\""): "&quot;"
            case UInt8(ascii: "'"): "&#39;"
            default: nil
            }
        }
    }

    private static let page = """
        {{% CONTENT_TYPE: RUNNER_HTML }}
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}}</title>
        <style>
        :root { --pass: #1a7f37; --fail: #cf222e; --error: #8250df; --skip: #9a6700; --line: #d0d7de; --muted: #57606a; }
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1100px; padding: 1.5rem; color: #1f2328; }
        h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
        .meta { color: var(--muted); margin: 0 0 1rem; }
        .counts { display: flex; flex-wrap: wrap; gap: 1.25rem; margin: .5rem 0; }
        .counts b { font-size: 1.3rem; display: block; }
        .bar { display: flex; height: 12px; border-radius: 6px; overflow: hidden; background: var(--line); margin: .5rem 0 1.25rem; }
        .bar span { display: block; height: 100%; }
        .passed-fill { background: var(--pass); } .failed-fill { background: var(--fail); }
        .errored-fill { background: var(--error); } .skipped-fill { background: var(--skip); }
        .filter { margin: 0 0 .75rem; }
        input[name=show] { position: absolute; opacity: 0; pointer-events: none; }
        .filter label { display: inline-block; border: 1px solid var(--line); border-radius: 999px; padding: .15rem .8rem; margin-right: .35rem; cursor: pointer; }
        #show-all:checked ~ .filter label[for=show-all], #show-failed:checked ~ .filter label[for=show-failed],
        #show-flaky:checked ~ .filter label[for=show-flaky], #show-skipped:checked ~ .filter label[for=show-skipped] { background: #1f2328; color: #fff; }
        #show-failed:checked ~ ol > li:not(.failed):not(.errored) { display: none; }
        #show-flaky:checked ~ ol > li:not(.flaky) { display: none; }
        #show-skipped:checked ~ ol > li:not(.skipped) { display: none; }
        ol { list-style: none; padding: 0; margin: 0; }
        li { border-top: 1px solid var(--line); }
        summary { padding: .35rem 0; cursor: pointer; display: flex; gap: .75rem; align-items: baseline; }
        summary::before { content: "▸"; color: var(--muted); width: .6rem; flex: none; }
        details[open] > summary::before { content: "▾"; }
        .verdict { font: 600 12px ui-monospace, monospace; width: 3.6rem; flex: none; }
        .passed .verdict { color: var(--pass); } .failed .verdict { color: var(--fail); }
        .errored .verdict { color: var(--error); } .skipped .verdict { color: var(--skip); }
        .name { font-weight: 600; }
        .target { color: var(--muted); font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; flex: 1; }
        .facts { color: var(--muted); white-space: nowrap; font-size: 12px; }
        .tag { border-radius: 4px; padding: 0 .3rem; font-size: 11px; background: #fff8c5; color: var(--skip); }
        pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; overflow: auto; font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
        h3 { font-size: .85rem; margin: .6rem 0 .2rem; color: var(--muted); }
        </style>
        </head>
        <body>
        <h1>{{title}}</h1>
        <p class="meta">{{headline}} · exit status {{exitStatus}} · runner {{version}}{{seed}}</p>
        <div class="counts">
        <div><b>{{passed}}</b>passed</div><div><b>{{failed}}</b>failed</div><div><b>{{errored}}</b>errored</div><div><b>{{skipped}}</b>skipped</div><div><b>{{flaky}}</b>flaky</div>
        </div>
        <div class="bar" role="img" aria-label="{{passed}} passed, {{failed}} failed, {{errored}} errored, {{skipped}} skipped">{{#bar}}<span class="{{kind}}-fill" style="width: {{percent}}%"></span>{{/bar}}</div>
        <input type="radio" name="show" id="show-all" checked>
        <input type="radio" name="show" id="show-failed">
        <input type="radio" name="show" id="show-flaky">
        <input type="radio" name="show" id="show-skipped">
        <div class="filter"><label for="show-all">All ({{total}})</label><label for="show-failed">Failed ({{failedOrErrored}})</label><label for="show-flaky">Flaky ({{flaky}})</label><label for="show-skipped">Skipped ({{skipped}})</label></div>
        <ol>
        {{#requests}}
        <li class="{{classes}}"><details{{#open}} open{{/open}}><summary><span class="verdict">{{verdict}}</span><span class="name">{{name}}</span><span class="target">{{target}}</span><span class="facts">{{facts}}</span>{{#flaky}}<span class="tag">flaky</span>{{/flaky}}</summary>
        <p class="facts">{{file}}</p>
        {{#detail}}{{#problems}}<h3>Problems</h3><pre>{{.}}</pre>{{/problems}}
        {{#exchange}}<h3>Exchange</h3><pre>{{.}}</pre>{{/exchange}}{{/detail}}
        </details></li>
        {{/requests}}
        </ol>
        </body>
        </html>

        """
}
