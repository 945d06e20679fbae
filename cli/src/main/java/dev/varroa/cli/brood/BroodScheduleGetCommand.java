package dev.varroa.cli.brood;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.bff.ClusterAnswers;
import dev.varroa.cli.bff.OutputFormat;
import dev.varroa.cli.bff.ServerOptions;
import dev.varroa.cli.bff.Table;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code varroactl broodschedule get}: brood schedules with next run and last result, then the job schedules. */
@Command(name = "get", aliases = "list", mixinStandardHelpOptions = true,
    description = {"BroodSchedules of every registered cluster you may list, with next run and last result; then the"
        + " job schedules (timer triggers) the Varroa plugin reports per Controller, from the build record store.",
        "A cluster whose list did not arrive is named on stderr (`warning: cluster eu-2: list unavailable`) and the"
            + " command still exits 0 with the other clusters' rows."})
public final class BroodScheduleGetCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Option(names = "--cluster", paramLabel = "NAME", description = "Only this cluster's schedules.")
  String cluster;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "table (default); yaml or json print the BFF's answer (schedules, jobSchedules, clusters).")
  OutputFormat output = OutputFormat.table;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    JsonNode answer = server.client().json("/broodschedules", query);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (output.document()) {
      output.printDocument(answer, out);
    } else {
      Table schedules = schedules(answer.path("schedules"));
      if (schedules.isEmpty()) {
        err.println("No brood schedules found" + (cluster == null ? "" : " in cluster " + cluster) + ".");
      } else {
        schedules.print(out);
      }
      Table jobs = jobs(answer.path("jobSchedules"));
      if (!answer.path("recordStore").asBoolean(true)) {
        err.println("No job schedules: the build record store is not enabled.");
      } else if (jobs.isEmpty()) {
        err.println("No job schedules reported.");
      } else {
        if (!schedules.isEmpty()) {
          out.println();
        }
        jobs.print(out);
      }
      err.flush();
    }
    ClusterAnswers.warnListsMissing(answer, err);
    return 0;
  }

  static Table schedules(JsonNode rows) {
    Table table = new Table(List.of("CLUSTER", "NAMESPACE", "NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "NEXT-RUN",
        "LAST-RUN", "LAST-RESULT", "ACTIVE"));
    for (JsonNode row : rows) {
      table.add(List.of(row.path("cluster").asText(), row.path("namespace").asText(), row.path("name").asText(),
          row.path("schedule").asText(), row.path("timeZone").asText(), String.valueOf(row.path("suspend").asBoolean()),
          row.path("nextRunTime").asText(""), row.path("lastRunTime").asText(""), row.path("lastResult").asText(""),
          String.valueOf(row.path("active").size())));
    }
    return table;
  }

  static Table jobs(JsonNode rows) {
    Table table = new Table(List.of("CLUSTER", "NAMESPACE", "CONTROLLER", "JOB", "TIMER-SPECS", "OBSERVED"));
    for (JsonNode row : rows) {
      List<String> specs = new ArrayList<>();
      row.path("timerSpecs").forEach(s -> specs.add(s.asText()));
      table.add(List.of(row.path("cluster").asText(), row.path("namespace").asText(),
          row.path("controller").asText(), row.path("job").asText(), String.join(" | ", specs),
          row.path("observedAt").asText("")));
    }
    return table;
  }
}
