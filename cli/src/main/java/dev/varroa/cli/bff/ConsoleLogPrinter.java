package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Prints one run's console log through the BFF: its stored bytes by ranges (GET /runs/{runId}/log), then, when asked
 * to follow a run that has not ended, the live stream (GET /runs/{runId}/log/stream) until its end event.
 */
public final class ConsoleLogPrinter {

  /** Bytes asked for per range: the BFF's default length. */
  static final int RANGE_BYTES = 65_536;
  /** A live stream that drops is resumed from its last offset this many times in a row. */
  static final int STREAM_RESUMES = 5;

  private final BffClient client;
  private final PrintWriter out;

  public ConsoleLogPrinter(BffClient client, PrintWriter out) {
    this.client = client;
    this.out = out;
  }

  /** Prints the log; with {@code follow}, returns once the run has ended and its log is complete. */
  public void print(String runId, boolean follow) {
    String runPath = "/runs/" + URLEncoder.encode(runId, StandardCharsets.UTF_8);
    Utf8Text text = new Utf8Text(out);
    long offset = 0;
    boolean complete;
    try {
      while (true) {
        HttpResponse<InputStream> range = client.stream(runPath + "/log", Map.of("from", Long.toString(offset),
            "length", Integer.toString(RANGE_BYTES)), Map.of(), true);
        byte[] bytes;
        try (InputStream in = range.body()) {
          bytes = in.readAllBytes();
        }
        text.write(bytes);
        long next = range.headers().firstValueAsLong("Varroa-Log-Next").orElse(offset + bytes.length);
        long size = range.headers().firstValueAsLong("Varroa-Log-Size").orElse(next);
        complete = range.headers().firstValue("Varroa-Log-Complete").map(Boolean::parseBoolean).orElse(true);
        offset = next;
        if (next >= size || bytes.length == 0) {
          break;
        }
      }
    } catch (IOException e) {
      throw BffFailure.local("the console log of run " + runId + " could not be read: " + e.getMessage());
    }
    if (follow && !complete) {
      follow(runPath, offset, text);
    }
    text.finish();
  }

  private void follow(String runPath, long from, Utf8Text text) {
    long[] offset = {from};
    boolean[] ended = {false};
    for (int drops = 0; !ended[0] && drops <= STREAM_RESUMES; drops++) {
      HttpResponse<InputStream> stream = client.stream(runPath + "/log/stream", Map.of("from",
          Long.toString(offset[0])), Map.of("Accept", "text/event-stream"), false);
      long before = offset[0];
      try {
        ServerSentEvents.read(stream.body(), event -> {
          if ("end".equals(event.name())) {
            ended[0] = true;
            return false;
          }
          if ("chunk".equals(event.name())) {
            JsonNode chunk = BffClient.JSON.readTree(event.data());
            text.writeText(chunk.path("text").asText());
            offset[0] = event.id() != null ? Long.parseLong(event.id())
                : chunk.path("offset").asLong() + chunk.path("text").asText().getBytes(StandardCharsets.UTF_8).length;
          }
          return true;
        });
      } catch (IOException | RuntimeException e) {
        if (drops == STREAM_RESUMES) {
          throw BffFailure.local("the live log stream of " + runPath + " broke: " + e.getMessage());
        }
      }
      if (offset[0] > before) {
        drops = -1;
      }
    }
    if (!ended[0]) {
      throw BffFailure.local("the live log stream of " + runPath + " closed " + (STREAM_RESUMES + 1)
          + " times without progress before the build ended");
    }
  }

  /** Bytes to text across range boundaries: a UTF-8 sequence split by a range is decoded when its end arrives. */
  private static final class Utf8Text {
    private final PrintWriter out;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    private ByteBuffer pending = ByteBuffer.allocate(0);

    Utf8Text(PrintWriter out) {
      this.out = out;
    }

    void write(byte[] bytes) {
      ByteBuffer in = ByteBuffer.allocate(pending.remaining() + bytes.length).put(pending).put(bytes).flip();
      CharBuffer chars = CharBuffer.allocate(in.remaining() + 1);
      decoder.decode(in, chars, false);
      out.print(chars.flip());
      out.flush();
      pending = in.slice();
    }

    void writeText(String chunk) {
      out.print(chunk);
      out.flush();
    }

    void finish() {
      CharBuffer chars = CharBuffer.allocate(pending.remaining() + 1);
      decoder.decode(pending, chars, true);
      out.print(chars.flip());
      out.flush();
    }
  }
}
