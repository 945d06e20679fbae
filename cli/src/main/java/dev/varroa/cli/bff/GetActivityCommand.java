package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.input.InvalidInputException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code varroactl get activity}: the activity history (newest first) from the build record store. */
@Command(name = "activity", mixinStandardHelpOptions = true,
    description = "Activity history, newest first, from the build record store (empty, with a warning, when the"
        + " record store is not enabled).")
public final class GetActivityCommand implements Callable<Integer> {

  private static final Pattern AGO = Pattern.compile("(\\d+)([smhd])");

  @Mixin ServerOptions server;

  @Option(names = "--cluster", paramLabel = "NAME", description = "Only this cluster.")
  String cluster;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE", description = "Only this namespace.")
  String namespace;

  @Option(names = "--controller", paramLabel = "NAME", description = "Only this Controller.")
  String controller;

  @Option(names = "--since", paramLabel = "TIME",
      description = "Only events after this: an RFC 3339 time (2025-06-01T12:00:00Z) or an age (30s, 15m, 2h, 7d).")
  String since;

  @Option(names = "--limit", paramLabel = "N", description = "At most N events (1..1000); default: the BFF's 100.")
  Integer limit;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "table (default); wide adds CLUSTER and ACTOR; yaml or json print the BFF's answer.")
  OutputFormat output = OutputFormat.table;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Instant now = GetClustersCommand.root(spec).clock().instant();
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    query.put("namespace", namespace);
    query.put("controller", controller);
    query.put("since", since == null ? null : since(since, now).toString());
    query.put("limit", limit == null ? null : limit.toString());
    JsonNode answer = server.client().json("/activity", query);
    var out = spec.commandLine().getOut();
    var err = spec.commandLine().getErr();
    if (output.document()) {
      output.printDocument(answer, out);
    } else {
      boolean wide = output == OutputFormat.wide;
      List<String> headers = new ArrayList<>(List.of("AGE", "NAMESPACE", "CONTROLLER", "KIND", "SUMMARY"));
      if (wide) {
        headers.addAll(List.of("CLUSTER", "ACTOR", "TIME"));
      }
      Table table = new Table(headers);
      for (JsonNode event : answer.path("items")) {
        List<String> cells = new ArrayList<>(List.of(Ages.since(event.path("occurredAt").asText(null), now),
            event.path("namespace").asText(), event.path("controller").asText(), event.path("kind").asText(),
            event.path("summary").asText()));
        if (wide) {
          cells.addAll(List.of(event.path("cluster").asText(), event.path("actor").asText(),
              event.path("occurredAt").asText()));
        }
        table.add(cells);
      }
      if (table.isEmpty()) {
        err.println("No activity found.");
      } else {
        table.print(out);
      }
    }
    if (!answer.path("recordStore").asBoolean(true)) {
      err.println("warning: the build record store is not enabled on this Varroa: there is no activity history");
    }
    err.flush();
    return 0;
  }

  /** An RFC 3339 time, or an age before now. */
  static Instant since(String value, Instant now) {
    Matcher ago = AGO.matcher(value.trim());
    if (ago.matches()) {
      long n = Long.parseLong(ago.group(1));
      Duration age = switch (ago.group(2)) {
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
      return now.minus(age);
    }
    try {
      return OffsetDateTime.parse(value.trim()).toInstant();
    } catch (DateTimeParseException e) {
      throw new InvalidInputException("--since " + value + ": not an RFC 3339 time or an age; fix: give e.g."
          + " 2025-06-01T12:00:00Z or 2h");
    }
  }
}
