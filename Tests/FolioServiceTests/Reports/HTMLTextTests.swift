import Testing

@testable import FolioService

@Suite struct HTMLTextTests {
  @Test func stripsTagsKeepsLinkTextAndDecodesEntities() {
    let html =
      #"Uses the <a href="https://x.test/?a=1&b=2">SHA-256</a> algorithm &amp; more &#39;x&#x27; &lt;3"#
    #expect(HTMLText.plain(html) == "Uses the SHA-256 algorithm & more 'x' <3")
  }

  @Test func lineBreaksAndParagraphs() {
    #expect(HTMLText.plain("one\r\n\r\n\r\ntwo\rthree") == "one\n\ntwo\nthree")
    #expect(HTMLText.plain("<p>first</p><p>second</p>") == "first\n\nsecond")
    #expect(HTMLText.plain("a<br>b<br/>c<BR />d") == "a\nb\nc\nd")
    #expect(HTMLText.plain("  \r\n lead and trail  \n\n") == "lead and trail")
  }

  @Test func aLessThanSignThatIsNotATagStays() {
    #expect(HTMLText.plain("a < b and 1<2") == "a < b and 1<2")
    #expect(HTMLText.plain("x <unclosed") == "x <unclosed")
    #expect(HTMLText.plain(#"<a title="1 > 0">t</a>"#) == "t")
    #expect(HTMLText.plain("&unknown; & &#xZZ;") == "&unknown; & &#xZZ;")
  }
}
