import { describe, expect, test } from "bun:test";
import { createRenderContext } from "../../src/render/context";
import { renderMessage } from "../../src/render/markdown";
import { extractReferences } from "../../src/render/syntax";
import { testContext } from "./renderFixtures";

const context = testContext();
const render = (content: string) => renderMessage(content, context);
const html = (content: string) => render(content).html;

describe("Markdown basics", () => {
  test("paragraphs, line breaks, emphasis, strikethrough", () => {
    expect(html("test_input")).toBe("<p>test_input</p>");
    expect(html("test\nbar")).toBe("<p>test<br>\nbar</p>");
    expect(html("a\n\nb")).toBe("<p>a</p>\n<p>b</p>");
    expect(html("*foo* **bar** ***baz***")).toBe(
      "<p><em>foo</em> <strong>bar</strong> <em><strong>baz</strong></em></p>",
    );
    expect(html("I like ~~software~~ hardware")).toBe("<p>I like <del>software</del> hardware</p>");
    expect(html("")).toBe("");
  });

  test("underscores never make emphasis, as in Zulip", () => {
    expect(html("_foo_ __bar__ snake_case_name")).toBe("<p>_foo_ __bar__ snake_case_name</p>");
  });

  test("code spans and fenced code blocks", () => {
    expect(html("`<&nbsp;>`")).toBe("<p><code>&lt;&amp;nbsp;&gt;</code></p>");
    expect(html("```\nfenced code\n```")).toBe(
      '<div class="codehilite"><pre><span></span><code>fenced code\n</code></pre></div>',
    );
    expect(html("~~~ python\ndef f():  \n    return '<b>'\n~~~")).toBe(
      '<div class="codehilite" data-code-language="python"><pre><span></span><code>def f():\n' +
        "    return '&lt;b&gt;'\n</code></pre></div>",
    );
    expect(html("    indented code")).toBe(
      '<div class="codehilite"><pre><span></span><code>indented code\n</code></pre></div>',
    );
  });

  test("quotes, including ~~~ quote fences with Markdown inside", () => {
    expect(html("> Hello World!\n\n> Hello Universe!")).toBe(
      "<blockquote>\n<p>Hello World!</p>\n</blockquote>\n<blockquote>\n<p>Hello Universe!</p>\n</blockquote>",
    );
    expect(html("Hamlet said:\n~~~ quote\nTo be or **not** to be.\n~~~")).toBe(
      "<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n</blockquote>",
    );
  });

  test("spoiler blocks", () => {
    expect(html("```spoiler header\ncontent\n```\noutside")).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n' +
        '</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside</p>',
    );
  });

  test("lists, headings and tables", () => {
    expect(html("* One\n* Two")).toBe("<ul>\n<li>One</li>\n<li>Two</li>\n</ul>");
    expect(html("3. A\n4. B")).toBe('<ol start="3">\n<li>A</li>\n<li>B</li>\n</ol>');
    expect(html("# Hello world")).toBe("<h1>Hello world</h1>");
    expect(html("#Hello")).toBe("<p>#Hello</p>");
    expect(html("| a | b |\n|---|---|\n| 1 | 2 |")).toContain("<td>1</td>");
  });

  test("reference links, setext headings and image syntax are not Zulip syntax", () => {
    expect(html("Hello [world]\n\n[world]: https://google.com")).toBe(
      '<p>Hello [world]</p>\n<p>[world]: <a href="https://google.com">https://google.com</a></p>',
    );
    expect(html("Title\n=====")).toBe("<p>Title<br>\n=====</p>");
    expect(html("![alt](https://a.org/x.png)")).toBe('<p>!<a href="https://a.org/x.png">alt</a></p>');
  });
});

describe("links", () => {
  test("Markdown links, autolinks and bare URLs", () => {
    expect(html("[hello](https://github.com)")).toBe('<p><a href="https://github.com">hello</a></p>');
    expect(html("<https://github.com/a>")).toBe('<p><a href="https://github.com/a">https://github.com/a</a></p>');
    expect(html("see https://zulip.com/api. Check it!")).toBe(
      '<p>see <a href="https://zulip.com/api">https://zulip.com/api</a>. Check it!</p>',
    );
    expect(html("go to views.org please")).toBe('<p>go to <a href="http://views.org">views.org</a> please</p>');
    expect(html("mail a@b.com")).toBe('<p>mail <a href="mailto:a@b.com">a@b.com</a></p>');
  });

  test("file names are not taken for domains", () => {
    expect(html("see readme.md and views.py")).toBe("<p>see readme.md and views.py</p>");
  });

  test("an empty label shows the URL", () => {
    expect(html("[](https://github.com)")).toBe('<p><a href="https://github.com">https://github.com</a></p>');
    expect(html("[  ](https://github.com)")).toBe('<p><a href="https://github.com">https://github.com</a></p>');
  });

  test("links into the organization become relative", () => {
    expect(html("[foo](https://chat.example.com/#narrow/channel/1-Denmark)")).toBe(
      '<p><a href="#narrow/channel/1-Denmark">foo</a></p>',
    );
    expect(html("[bar](https://chat.example.com/help)")).toBe(
      '<p><a href="https://chat.example.com/help">bar</a></p>',
    );
  });

  test("only http(s), mailto and in-app targets are linked", () => {
    for (const target of ["javascript:alert(1)", "vbscript:x", "data:text/html,x", "file:///etc/passwd", "//evil.com/x", "foo"]) {
      const rendered = html(`[click](${target})`);
      expect(rendered).not.toContain("<a");
    }
    expect(html("javascript://foo.com")).not.toContain('href="javascript');
    expect(html("[in app](/#narrow/is/starred)")).toBe('<p><a href="/#narrow/is/starred">in app</a></p>');
  });

  test("has_link and has_image", () => {
    expect(render("plain").hasLink).toBe(false);
    expect(render("see https://a.org").hasLink).toBe(true);
    expect(render("see https://a.org").hasImage).toBe(false);
    expect(render("logo https://a.org/logo.png?v=2").hasImage).toBe(true);
    expect(render("#**Denmark**").hasLink).toBe(false);
    expect(render("see https://a.org").hasAttachment).toBe(false);
  });
});

describe("user mentions", () => {
  test("by name, case-insensitively, shown with the user's real name", () => {
    const result = render("hi @**king hamlet**!");
    expect(result.html).toBe('<p>hi <span class="user-mention" data-user-id="8">@King Hamlet</span>!</p>');
    expect(result.mentionedUserIds).toEqual([8]);
    expect(result.silentlyMentionedUserIds).toEqual([]);
  });

  test("silent mentions notify nobody", () => {
    const result = render("@_**Polonius** said");
    expect(result.html).toBe('<p><span class="user-mention silent" data-user-id="9">Polonius</span> said</p>');
    expect(result.mentionedUserIds).toEqual([]);
    expect(result.silentlyMentionedUserIds).toEqual([9]);
  });

  test("a shared name is ambiguous; Name|id picks one", () => {
    const ambiguous = render("@**Sam Twin**");
    expect(ambiguous.html).toBe("<p>@<strong>Sam Twin</strong></p>");
    expect(ambiguous.mentionedUserIds).toEqual([]);
    const chosen = render("@**Sam Twin|21** and @**|20**");
    expect(chosen.html).toBe(
      '<p><span class="user-mention" data-user-id="21">@Sam Twin</span> and ' +
        '<span class="user-mention" data-user-id="20">@Sam Twin</span></p>',
    );
    expect(chosen.mentionedUserIds.sort()).toEqual([20, 21]);
  });

  test("Name|id must name that very user", () => {
    const result = render("@**Polonius|8** @**King Hamlet|999**");
    expect(result.html).toBe("<p>@<strong>Polonius|8</strong> @<strong>King Hamlet|999</strong></p>");
    expect(result.mentionedUserIds).toEqual([]);
  });

  test("unknown names are plain text", () => {
    const result = render("@**Nobody Here** @Polonius");
    expect(result.html).toBe("<p>@<strong>Nobody Here</strong> @Polonius</p>");
    expect(result.mentionedUserIds).toEqual([]);
  });

  test("deactivated users are mentioned silently", () => {
    const result = render("@**Gone Away**");
    expect(result.html).toBe('<p><span class="user-mention silent" data-user-id="30">Gone Away</span></p>');
    expect(result.mentionedUserIds).toEqual([]);
    expect(result.silentlyMentionedUserIds).toEqual([30]);
  });

  test("mentions must start after a space or opening mark", () => {
    expect(render("email@**Polonius**").mentionedUserIds).toEqual([]);
    expect(render("(@**Polonius**)").mentionedUserIds).toEqual([9]);
  });

  test("someone mentioned both ways counts as mentioned", () => {
    const result = render("@**Polonius** and @_**Polonius**");
    expect(result.mentionedUserIds).toEqual([9]);
    expect(result.silentlyMentionedUserIds).toEqual([]);
  });

  test("mentions inside quotes are silent", () => {
    const result = render("> @**Polonius** wrote\n\n~~~ quote\n@**King Hamlet** too\n~~~\n\n@*support*");
    expect(result.html).toContain('<span class="user-mention silent" data-user-id="9">Polonius</span>');
    expect(result.html).toContain('<span class="user-mention silent" data-user-id="8">King Hamlet</span>');
    expect(result.mentionedUserIds).toEqual([]);
    expect(result.silentlyMentionedUserIds.sort()).toEqual([8, 9]);
    expect(result.mentionedGroupIds).toEqual([3]);
    expect(render("> @*support* @**all**").mentionedGroupIds).toEqual([]);
    expect(render("> @**all**").wildcard).toBeNull();
  });

  test("code spans and blocks hide mentions, links and emoji", () => {
    const result = render("`@**Polonius** #**Denmark** :smile: #12`\n\n```\n@**King Hamlet** @*support* @**all**\n```");
    expect(result.mentionedUserIds).toEqual([]);
    expect(result.mentionedGroupIds).toEqual([]);
    expect(result.wildcard).toBeNull();
    expect(result.hasLink).toBe(false);
    expect(result.html).toBe(
      "<p><code>@**Polonius** #**Denmark** :smile: #12</code></p>\n" +
        '<div class="codehilite"><pre><span></span><code>@**King Hamlet** @*support* @**all**\n</code></pre></div>',
    );
  });
});

describe("wildcard and group mentions", () => {
  test.each(["all", "everyone", "channel", "stream"])("@**%s** is a channel wildcard", (name) => {
    const result = render(`hey @**${name}**`);
    expect(result.html).toBe(
      `<p>hey <span class="user-mention channel-wildcard-mention" data-user-id="*">@${name}</span></p>`,
    );
    expect(result.wildcard).toBe("channel");
  });

  test("@**topic** is a topic wildcard", () => {
    const result = render("@**topic** look");
    expect(result.html).toBe('<p><span class="topic-mention">@topic</span> look</p>');
    expect(result.wildcard).toBe("topic");
    expect(render("@**topic** @**all**").wildcard).toBe("channel");
  });

  test("silent wildcards notify nobody", () => {
    const result = render("@_**all** @_**topic**");
    expect(result.html).toBe(
      '<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span> ' +
        '<span class="topic-mention silent">topic</span></p>',
    );
    expect(result.wildcard).toBeNull();
  });

  test("wildcard names are exact: @**All** is not one", () => {
    expect(render("@**All**").wildcard).toBeNull();
  });

  test("group mentions, silent ones and deactivated groups", () => {
    const result = render("@*Support* @_*support* @*old team* @*nope*");
    expect(result.html).toBe(
      '<p><span class="user-group-mention" data-user-group-id="3">@support</span> ' +
        '<span class="user-group-mention silent" data-user-group-id="3">support</span> ' +
        '<span class="user-group-mention silent" data-user-group-id="4">old team</span> @<em>nope</em></p>',
    );
    expect(result.mentionedGroupIds).toEqual([3]);
  });
});

describe("channel and topic links", () => {
  test("channel link", () => {
    expect(html("see #**denmark**")).toBe(
      '<p>see <a class="stream" data-stream-id="1" href="/#narrow/channel/1-Denmark">#Denmark</a></p>',
    );
  });

  test("topic link, with Zulip's URL encoding", () => {
    expect(html("#**dev help>a topic.x/y**")).toBe(
      '<p><a class="stream-topic" data-stream-id="2" href="/#narrow/channel/2-dev-help/topic/a.20topic.2Ex.2Fy">' +
        "#dev help &gt; a topic.x/y</a></p>",
    );
  });

  test("link to the empty topic shows its display name", () => {
    expect(html("#**Denmark>**")).toBe(
      '<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/">' +
        "#Denmark &gt; <em>general chat</em></a></p>",
    );
    const named = renderMessage("#**Denmark>**", testContext({ emptyTopicDisplayName: "<none>" }));
    expect(named.html).toContain("<em>&lt;none&gt;</em>");
  });

  test("message link", () => {
    expect(html("#**Denmark>plans@42**")).toBe(
      '<p><a class="message-link" href="/#narrow/channel/1-Denmark/topic/plans/near/42">#Denmark &gt; plans @ 💬</a></p>',
    );
  });

  test("unknown channels are plain text", () => {
    expect(html("#**Nowhere** #**Nowhere>t**")).toBe("<p>#<strong>Nowhere</strong> #<strong>Nowhere&gt;t</strong></p>");
  });

  test("topic text is escaped", () => {
    expect(html("#**Denmark><img src=x onerror=alert(1)>**")).toContain("#Denmark &gt; &lt;img src=x onerror=alert(1)&gt;");
  });
});

describe("emoji", () => {
  test(":name: becomes Zulip's emoji span", () => {
    expect(html(":smile:")).toBe(
      '<p><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>',
    );
    expect(html(":thumbs_up:")).toBe(
      '<p><span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span></p>',
    );
  });

  test("emoji next to each other and unknown names", () => {
    expect(html(":cat:hello:dog: :fakeemojithisshouldnotrender: x::y")).toBe(
      '<p><span aria-label="cat" class="emoji emoji-1f408" role="img" title="cat">:cat:</span>hello' +
        '<span aria-label="dog" class="emoji emoji-1f415" role="img" title="dog">:dog:</span> ' +
        ":fakeemojithisshouldnotrender: x::y</p>",
    );
  });

  test("literal Unicode emoji are recognized; text-style symbols are not", () => {
    expect(html("Merry 🎄")).toBe(
      '<p>Merry <span aria-label="holiday tree" class="emoji emoji-1f384" role="img" title="holiday tree">:holiday_tree:</span></p>',
    );
    expect(html("\u{1F937}\u200D\u2640\uFE0F")).toBe(
      '<p><span aria-label="woman shrugging" class="emoji emoji-1f937-200d-2640" role="img" title="woman shrugging">:woman_shrugging:</span></p>',
    );
    expect(html("1 ↔ #")).toBe("<p>1 ↔ #</p>");
  });

  test("the built-in extra emoji and custom emoji are images", () => {
    expect(html(":zulip:")).toBe(
      '<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>',
    );
    expect(html(":green_tick:")).toBe(
      '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/101.png" title="green tick"></p>',
    );
  });

  test("a colon in a URL is not emoji syntax", () => {
    expect(html("https://a.org/x:smile:y")).toBe('<p><a href="https://a.org/x:smile:y">https://a.org/x:smile:y</a></p>');
  });
});

describe("/me messages", () => {
  test("content starting with '/me ' is a me-message, rendered as is", () => {
    const result = render("/me is happy");
    expect(result.isMeMessage).toBe(true);
    expect(result.html).toBe("<p>/me is happy</p>");
  });

  test("other content is not", () => {
    expect(render("/meh").isMeMessage).toBe(false);
    expect(render(" /me x").isMeMessage).toBe(false);
    expect(render("hi /me x").isMeMessage).toBe(false);
  });
});

describe("linkifiers in content", () => {
  test("matches become links, not inside code or existing links", () => {
    expect(html("fix #123, and `#5` [#7](https://a.org) https://a.org/#8")).toBe(
      '<p>fix <a href="https://github.com/org/repo/issues/123">#123</a>, and <code>#5</code> ' +
        '<a href="https://a.org">#7</a> <a href="https://a.org/#8">https://a.org/#8</a></p>',
    );
  });

  test("an organization without linkifiers links nothing", () => {
    expect(renderMessage("#123", createRenderContext()).html).toBe("<p>#123</p>");
  });
});

describe("extractReferences", () => {
  test("lists the names and ids the content might refer to", () => {
    const refs = extractReferences(
      "@**King Hamlet** @_**Sam Twin|21** @**|20** @**all** @*support* @_*old team* " +
        "#**Denmark** #**dev help>topic** :smile: `@**In Code**`",
    );
    expect(refs.userNames.sort()).toEqual(["In Code", "King Hamlet", "Sam Twin"]);
    expect(refs.userIds.sort()).toEqual([20, 21]);
    expect(refs.groupNames.sort()).toEqual(["old team", "support"]);
    expect(refs.channelNames.sort()).toEqual(["Denmark", "dev help"]);
    expect(refs.emojiNames).toEqual(["smile"]);
  });

  test("a context built from exactly those rows renders the mentions", () => {
    const content = "@**King Hamlet** in #**Denmark**";
    const refs = extractReferences(content);
    const context = createRenderContext({
      users: [{ id: 8, fullName: "King Hamlet" }].filter((user) => refs.userNames.includes(user.fullName)),
      channels: [{ id: 1, name: "Denmark" }].filter((channel) => refs.channelNames.includes(channel.name)),
    });
    const result = renderMessage(content, context);
    expect(result.mentionedUserIds).toEqual([8]);
    expect(result.html).toContain('class="stream"');
  });
});
