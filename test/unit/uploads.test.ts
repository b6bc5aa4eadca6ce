import { describe, expect, test } from "bun:test";
import { renderMessage } from "../../src/render/markdown";
import { uploadPathIdOf } from "../../src/render/plugins/inlineImages";
import { displayFileName, isInlineContentType, signUploadToken, tokenAttachmentId, uploadContentType, uploadLimitMib, uploadUrl, urlFileName, verifyUploadToken } from "../../src/model/uploads";
import { testContext } from "./renderFixtures";

/** Upload rules (model/uploads.ts) and how messages that link uploads render (render/plugins/inlineImages.ts). */

const context = testContext();
const render = (content: string) => renderMessage(content, context);

const preview = (url: string, title?: string) => `<div class="message_inline_image"><a href="${url}"${title === undefined ? "" : ` title="${title}"`}><img src="${url}"></a></div>`;

describe("previews of uploaded images, in Zulip's markup", () => {
  const image = "/user_uploads/1/ce/abc/image.jpg";
  const other = "/user_uploads/1/70/def/image2.png";

  test("a named link alone in its paragraph gives way to the preview (zulip-flutter's imagePreviewSingle)", () => {
    expect(render(`[image.jpg](${image})`).html).toBe(preview(image, "image.jpg"));
  });

  test("several links keep their paragraph; the previews follow it (imagePreviewCluster)", () => {
    expect(render(`[image.jpg](${image})\n[image2.png](${other})`).html).toBe(
      `<p><a href="${image}">image.jpg</a><br>\n<a href="${other}">image2.png</a></p>\n${preview(image, "image.jpg")}${preview(other, "image2.png")}`,
    );
  });

  test("text around a link keeps it; later paragraphs come after the preview (imagePreviewClusterThenContent)", () => {
    expect(render(`look [image.jpg](${image}) here\n\nmore content`).html).toBe(`<p>look <a href="${image}">image.jpg</a> here</p>\n${preview(image, "image.jpg")}<p>more content</p>`);
  });

  test("in list items, inside the item (imagePreviewInImplicitParagraph)", () => {
    expect(render(`* [image.jpg](${image})\n* see [image2.png](${other})`).html).toBe(
      `<ul>\n<li>${preview(image, "image.jpg")}</li>\n<li>see <a href="${other}">image2.png</a>${preview(other, "image2.png")}</li>\n</ul>`,
    );
  });

  test("a bare link to this organization is made relative and previewed without a title", () => {
    expect(render(`${context.realmUrl}${image}`).html).toBe(preview(image));
  });

  test("each URL once; not in quotes; not for other files; not for images elsewhere on the web", () => {
    expect(render(`[a](${image}) [b](${image})`).html).toBe(`<p><a href="${image}">a</a> <a href="${image}">b</a></p>\n${preview(image, "a")}`);
    expect(render(`> [image.jpg](${image})`).html).toBe(`<blockquote>\n<p><a href="${image}">image.jpg</a></p>\n</blockquote>`);
    expect(render("[doc.pdf](/user_uploads/1/x/y/doc.pdf)").html).toBe('<p><a href="/user_uploads/1/x/y/doc.pdf">doc.pdf</a></p>');
    expect(render("https://example.com/cat.png").html).toBe('<p><a href="https://example.com/cat.png">https://example.com/cat.png</a></p>');
    expect(render(`# [image.jpg](${image})`).html).toBe(`<h1><a href="${image}">image.jpg</a></h1>`);
  });

  test("more than 24 previewable links in a message: no previews at all, as in the reference", () => {
    const links = Array.from({ length: 25 }, (_, i) => `[${i}.png](/user_uploads/1/a/b${i}/${i}.png)`).join(" ");
    expect(render(links).html).not.toContain("message_inline_image");
    expect(render(Array.from({ length: 24 }, (_, i) => `[${i}.png](/user_uploads/1/a/b${i}/${i}.png)`).join(" ")).html.match(/message_inline_image/g)).toHaveLength(24);
  });

  test("titles and URLs are escaped", () => {
    expect(render('[x"<y.png](/user_uploads/1/x/a%22b.png)').html).toBe(preview("/user_uploads/1/x/a%22b.png", "x&quot;&lt;y.png"));
  });
});

describe("the uploads a message links", () => {
  test("every upload link, quoted ones too, decoded; not code, not temporary or thumbnail URLs", () => {
    expect(render("[a](/user_uploads/1/x/a.txt) > no\n\n> [b](/user_uploads/1/y/%C3%BC.png)").attachmentPathIds).toEqual(["1/x/a.txt", "1/y/ü.png"]);
    expect(render("`[a](/user_uploads/1/x/a.txt)`\n\n    /user_uploads/1/x/b.txt").attachmentPathIds).toEqual([]);
    expect(render("[t](/user_uploads/temporary/abc/a.txt) [u](/user_uploads/thumbnail/1/x/a.png/840x560.webp)").attachmentPathIds).toEqual([]);
    expect(render("plain /user_uploads/1/x/a.txt text").attachmentPathIds).toEqual([]);
    expect(render("nothing here").hasAttachment).toBe(false);
  });

  test("uploadPathIdOf", () => {
    expect(uploadPathIdOf("/user_uploads/1/ab/c.png")).toBe("1/ab/c.png");
    expect(uploadPathIdOf("user_uploads/1/ab/c.png?x=1#y")).toBe("1/ab/c.png");
    expect(uploadPathIdOf("/user_uploads/1/../c.png")).toBeUndefined();
    expect(uploadPathIdOf("/user_uploads/1/%E0%A4%A")).toBeUndefined();
    expect(uploadPathIdOf("/user_uploads/only")).toBeUndefined();
    expect(uploadPathIdOf("https://elsewhere.example/user_uploads/1/a/b.png")).toBeUndefined();
  });
});

describe("upload rules", () => {
  test("names as listed: no directories, no control characters, percent-decoded, never empty", () => {
    expect(displayFileName("C:\\fakepath\\photo.jpg")).toBe("photo.jpg");
    expect(displayFileName("../../etc/passwd")).toBe("passwd");
    expect(displayFileName("a\u0000b\u200ec.txt")).toBe("abc.txt");
    expect(displayFileName("%F0%9F%90%88 cat.png")).toBe("🐈 cat.png");
    expect(displayFileName("100% sure.txt")).toBe("100% sure.txt");
    expect(displayFileName(undefined)).toBe("uploaded-file");
    expect(displayFileName("  ")).toBe("uploaded-file");
    expect([...displayFileName("x".repeat(1000))]).toHaveLength(255);
  });

  test("names in URLs: letters, digits, _ . - only, the extension kept when shortened", () => {
    expect(urlFileName("my photo (1).png")).toBe("my-photo-1.png");
    expect(urlFileName("<script>alert(1)</script>.html")).toBe("scriptalert1script.html");
    expect(urlFileName("Übersicht.txt")).toBe("Übersicht.txt");
    expect(urlFileName("🐈")).toBe("uploaded-file");
    expect(urlFileName("...")).toBe("uploaded-file");
    const long = urlFileName(`${"a".repeat(300)}.jpeg`);
    expect(long).toHaveLength(100);
    expect(long).toEndWith(".jpeg");
    expect(uploadUrl("1/abc/Übersicht.txt")).toBe("/user_uploads/1/abc/%C3%9Cbersicht.txt");
  });

  test("content types: well-formed ones kept (lower case, no parameters), else guessed from the name", () => {
    expect(uploadContentType("Image/PNG; x=y", "a.bin")).toBe("image/png");
    expect(uploadContentType("", "photo.JPG")).toBe("image/jpeg");
    expect(uploadContentType("not a type", "page.html")).toBe("text/html");
    expect(uploadContentType(undefined, "unknown")).toBe("application/octet-stream");
    for (const type of ["image/png", "image/jpeg", "application/pdf", "text/plain", "video/mp4"]) expect(isInlineContentType(type)).toBe(true);
    for (const type of ["text/html", "image/svg+xml", "application/xhtml+xml", "text/xml", "application/octet-stream"]) expect(isInlineContentType(type)).toBe(false);
  });

  test("the organization's size limit stays within the server's 25 MiB", () => {
    expect(uploadLimitMib(10)).toBe(10);
    expect(uploadLimitMib(1000)).toBe(25);
    expect(uploadLimitMib(-3)).toBe(0);
  });

  test("temporary URL tokens: valid until they expire, for their upload and key only", () => {
    const key = crypto.getRandomValues(new Uint8Array(32));
    const token = signUploadToken(key, 7, "1/abc/a.txt", 1000);
    expect(tokenAttachmentId(token)).toBe(7);
    expect(verifyUploadToken(key, token, 7, "1/abc/a.txt", 1000)).toBe(true);
    expect(verifyUploadToken(key, token, 7, "1/abc/a.txt", 1001)).toBe(false);
    expect(verifyUploadToken(key, token, 7, "1/abd/a.txt", 900)).toBe(false);
    expect(verifyUploadToken(key, token, 8, "1/abc/a.txt", 900)).toBe(false);
    expect(verifyUploadToken(crypto.getRandomValues(new Uint8Array(32)), token, 7, "1/abc/a.txt", 900)).toBe(false);
    expect(verifyUploadToken(key, token.replace(".1000.", ".9999."), 7, "1/abc/a.txt", 900)).toBe(false);
    expect(tokenAttachmentId("7.1000.short")).toBeUndefined();
  });
});
