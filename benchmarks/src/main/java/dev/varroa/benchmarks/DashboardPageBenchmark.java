package dev.varroa.benchmarks;

import dev.varroa.benchmarks.channel.Teardown;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.ProjectLayout;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Issue 14's browser figures, on the same stack as {@link DashboardBenchmark} (1,000 Controllers on a real API server,
 * NATS, the OpenID provider, the BFF in its own JVM serving the built web client): the Controllers page's first render
 * and time to interactive in headless Chromium (Debian's package, driven by playwright-core; performance.now() since
 * navigation start, loopback), the gzip size of the built JavaScript and CSS, and the page's JavaScript heap after
 * minutes of live activity arriving over SSE. Prints its figures last, as {@code figure: NAME VALUE UNIT}.
 *
 * <p>Arguments: controllers (1000), minutes of live activity (10), activity events a second (5).
 */
public final class DashboardPageBenchmark {

  private static final Path WEB = ProjectLayout.root().resolve("dashboard/web");
  private static final Path ASSETS = ProjectLayout.root().resolve("dashboard/target/classes/ui/assets");

  private DashboardPageBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int controllers = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
    int minutes = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    int perSecond = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Map<String, String> figures = new LinkedHashMap<>();
    figures.put("web_js_gzip", gzipBytes(".js") + " bytes");
    figures.put("web_css_gzip", gzipBytes(".css") + " bytes");
    try (Teardown teardown = new Teardown()) {
      DashboardBenchmark.Stack stack = DashboardBenchmark.start(teardown, controllers);
      listOnTheWire(stack, controllers, figures);
      browse(stack, controllers, minutes, perSecond, figures);
    }
    System.out.println();
    figures.forEach((name, value) -> System.out.println("figure: " + name + " " + value));
    System.exit(0);
  }

  /** The built files as a browser fetches them: each gzipped on its own, summed. */
  private static long gzipBytes(String suffix) throws IOException {
    if (!Files.isDirectory(ASSETS)) {
      throw new IllegalStateException(ASSETS + " is missing: build the dashboard first (make build)");
    }
    long total = 0;
    try (Stream<Path> files = Files.list(ASSETS)) {
      for (Path file : files.filter(f -> f.toString().endsWith(suffix)).toList()) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
          gzip.write(Files.readAllBytes(file));
        }
        System.out.printf("%s: %d bytes, %d gzipped%n", file.getFileName(), Files.size(file), out.size());
        total += out.size();
      }
    }
    return total;
  }

  /** GET /controllers as the page fetches it, with and without gzip: the bytes a browser downloads. */
  private static void listOnTheWire(DashboardBenchmark.Stack stack, int controllers, Map<String, String> figures)
      throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    String token = stack.token();
    long[] sizes = new long[2];
    for (int i = 0; i < 2; i++) {
      HttpRequest.Builder request = HttpRequest.newBuilder(
          URI.create(stack.base() + "/controllers")).header("Authorization", "Bearer " + token);
      if (i == 1) {
        request.header("Accept-Encoding", "gzip");
      }
      HttpResponse<byte[]> response = http.send(request.build(),
          HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200 || (i == 1 && response.headers().firstValue("Content-Encoding").isEmpty())) {
        throw new IllegalStateException("GET /controllers answered " + response.statusCode() + " "
            + response.headers().map());
      }
      sizes[i] = response.body().length;
    }
    System.out.printf("GET /controllers with %d rows: %d bytes, %d gzipped on the wire%n", controllers, sizes[0],
        sizes[1]);
    figures.put("controllers_list_" + controllers + "_bytes", sizes[0] + " bytes");
    figures.put("controllers_list_" + controllers + "_gzip_bytes", sizes[1] + " bytes");
  }

  /**
   * Runs the browser script; when it says {@code step: activity} the operator's ActivityPublisher starts sending
   * events for random controllers, until the script ends. Its {@code measure:} lines become figures.
   */
  private static void browse(DashboardBenchmark.Stack stack, int controllers, int minutes, int perSecond,
      Map<String, String> figures) throws Exception {
    String url = stack.base().replace("127.0.0.1", "localhost");
    ProcessBuilder builder = new ProcessBuilder("node", "bench/controllers-page.mjs").directory(WEB.toFile())
        .redirectErrorStream(true);
    builder.environment().putAll(Map.of("VARROA_E2E_URL", url, "VARROA_E2E_USER", DashboardBenchmark.USER,
        "VARROA_E2E_PASSWORD", DashboardBenchmark.PASSWORD, "VARROA_BENCH_CONTROLLERS", String.valueOf(controllers),
        "VARROA_BENCH_ACTIVITY_SECONDS", String.valueOf(minutes * 60),
        "VARROA_E2E_SCREENSHOTS", ProjectLayout.root().resolve("benchmarks/target/page-benchmark").toString()));
    ActivityPublisher publisher = new ActivityPublisher(stack::bus, DashboardBenchmark.CLUSTER, "operator",
        Clock.systemUTC());
    ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();
    AtomicLong sent = new AtomicLong();
    Process process = builder.start();
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        System.out.println("  browser | " + line);
        if (line.equals("step: activity")) {
          sender.scheduleAtFixedRate(() -> {
            long n = sent.incrementAndGet();
            int i = (int) (n * 7919 % controllers);
            publisher.controller(DashboardBenchmark.namespace(i % 10), DashboardBenchmark.name(i),
                "controller.phase_changed", "phase Running -> Connected (" + n + ")", Map.of("from", "Running"));
          }, 0, 1_000_000 / perSecond, TimeUnit.MICROSECONDS);
        } else if (line.startsWith("measure: ")) {
          List<String> parts = List.of(line.substring("measure: ".length()).split(" ", 2));
          figures.put(parts.get(0), parts.get(1));
        }
      }
    } finally {
      sender.shutdownNow();
    }
    if (process.waitFor() != 0) {
      throw new IllegalStateException("the browser script failed (exit " + process.exitValue() + "); see above");
    }
    figures.put("activity_events_sent", sent.get() + " events");
  }
}
