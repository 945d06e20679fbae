package dev.varroa.dashboard.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Utf8BoundaryTest {

  private static final byte[] TEXT = "ok é € 😀".getBytes(StandardCharsets.UTF_8);

  @Test
  void cutsBeforeACharacterWhoseLastBytesAreMissing() {
    // "😀" is 4 bytes at the end: every cut inside it goes back to its start.
    int emojiStart = TEXT.length - 4;
    assertThat(Utf8Boundary.completePrefix(TEXT, TEXT.length)).isEqualTo(TEXT.length);
    assertThat(Utf8Boundary.completePrefix(TEXT, emojiStart + 3)).isEqualTo(emojiStart);
    assertThat(Utf8Boundary.completePrefix(TEXT, emojiStart + 1)).isEqualTo(emojiStart);
    // "€" is 3 bytes starting 3 bytes after "é"'s start.
    int euroStart = "ok é ".getBytes(StandardCharsets.UTF_8).length;
    assertThat(Utf8Boundary.completePrefix(TEXT, euroStart + 2)).isEqualTo(euroStart);
    assertThat(Utf8Boundary.completePrefix(TEXT, euroStart + 3)).isEqualTo(euroStart + 3);
  }

  @Test
  void everyCutDecodesToAPrefixOfTheText() {
    String text = new String(TEXT, StandardCharsets.UTF_8);
    for (int cut = 0; cut <= TEXT.length; cut++) {
      int whole = Utf8Boundary.completePrefix(TEXT, cut);
      assertThat(whole).isLessThanOrEqualTo(cut).isGreaterThanOrEqualTo(cut - 3);
      assertThat(text).startsWith(new String(TEXT, 0, whole, StandardCharsets.UTF_8));
    }
  }

  @Test
  void bytesThatAreNoUtf8AreNotHeldBack() {
    byte[] invalid = {'a', (byte) 0xFF};
    assertThat(Utf8Boundary.completePrefix(invalid, 2)).isEqualTo(2);
  }
}
