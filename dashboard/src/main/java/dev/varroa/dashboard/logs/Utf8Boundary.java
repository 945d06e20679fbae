package dev.varroa.dashboard.logs;

/** Where a run of UTF-8 bytes may be cut without splitting a character. */
final class Utf8Boundary {

  private Utf8Boundary() {
  }

  /**
   * The length of the longest prefix of data[0, length) that does not end inside a multi-byte character. Bytes that are
   * no valid UTF-8 lead are left to the decoder (they become U+FFFD), never held back.
   */
  static int completePrefix(byte[] data, int length) {
    // A character is at most 4 bytes: only the last 3 can belong to an unfinished one.
    for (int back = 1; back <= Math.min(3, length); back++) {
      int b = data[length - back] & 0xFF;
      if ((b & 0xC0) == 0x80) {
        continue;
      }
      int needed = b >= 0xF0 && b <= 0xF7 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
      if (b >= 0xF8) {
        needed = 1;
      }
      return needed > back ? length - back : length;
    }
    return length;
  }
}
