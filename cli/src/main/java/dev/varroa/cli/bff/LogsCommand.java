package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.input.InvalidInputException;
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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code varroactl logs NAMESPACE/CONTROLLER JOB BUILD [-f]}: one run's console log, by range, then live. */
@Command(name = "logs", mixinStandardHelpOptions = true,
    description = {"Prints the console log of one build: finds the run (GET /runs), reads its log in ranges and with"
        + " -f follows it live (GET /runs/{runId}/log/stream) until the build ends.",
        "Needs the build record store. Exit codes: 0 printed, 1 no such run, or the server or network gave an error,"
            + " 2 invalid arguments."})
public final class LogsCommand implements Callable<Integer> {

  /** Bytes asked for per range: the BFF's default length. */
  static final int RANGE_BYTES = 65_536;
  /** A live stream that drops is resumed from its last offset this many times in a row. */
  static final int STREAM_RESUMES = 5;

  @Mixin ServerOptions server;

  @Parameters(index = "0", paramLabel = "NAMESPACE/CONTROLLER", description = "The Controller the job runs on.")
  String controller;

  @Parameters(index = "1", paramLabel = "JOB", description = "The job's full name (folder/name).")
  String job;

  @Parameters(index = "2", paramLabel = "BUILD", description = "The build number.")
  long build;

  @Option(names = {"-f", "--follow"}, description = "Keep printing while the build runs, until its log is complete.")
  boolean follow;

  @Option(names = "--cluster", paramLabel = "NAME", description = "The Controller's cluster; default: the core.")
  String cluster;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    int slash = controller.indexOf('/');
    if (slash <= 0 || slash == controller.length() - 1 || controller.indexOf('/', slash + 1) >= 0) {
      throw new InvalidInputException(controller + ": give the Controller as NAMESPACE/NAME, e.g. team-a/orders");
    }
    if (build < 1) {
      throw new InvalidInputException("BUILD " + build + ": a build number is 1 or more");
    }
    String namespace = controller.substring(0, slash);
    String name = controller.substring(slash + 1);
    BffClient client = server.client();
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    query.put("namespace", namespace);
    query.put("controller", name);
    query.put("job", job);
    query.put("build", Long.toString(build));
    query.put("limit", "1");
    JsonNode runs = client.json("/runs", query);
    if (runs.path("items").isEmpty()) {
      throw BffFailure.local("no run of job " + job + " #" + build + " on Controller " + namespace + "/" + name
          + (cluster == null ? "" : " in cluster " + cluster) + " is recorded"
          + (runs.path("recordStore").asBoolean(true) ? "" : ": the build record store is not enabled on this Varroa"));
    }
    String runPath = "/runs/" + URLEncoder.encode(runs.path("items").get(0).path("runId").asText(),
        StandardCharsets.UTF_8);
    PrintWriter out = spec.commandLine().getOut();
    Utf8Text text = new Utf8Text(out);
    long offset = 0;
    boolean complete;
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
    if (follow && !complete) {
      follow(client, runPath, offset, text);
    }
    text.finish();
    return 0;
  }

  private void follow(BffClient client, String runPath, long from, Utf8Text text) throws IOException {
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
