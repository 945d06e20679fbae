package dev.varroa.dashboard.reads;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.dashboard.records.Backfill;
import dev.varroa.dashboard.records.BuildStatistics;
import dev.varroa.dashboard.records.ControllerScope;
import dev.varroa.dashboard.records.InvalidParameterException;
import dev.varroa.dashboard.records.RecordLookup;
import dev.varroa.dashboard.records.RunDetail;
import dev.varroa.dashboard.records.RunRecords;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/** The record store's runs and activity, read as the BFF's read-only role (varroa_dashboard). */
public final class StoredRecordReads extends RecordReads {

  /** Times as RFC 3339 text, the API's form everywhere. */
  static final ObjectMapper VIEWS = dev.varroa.dashboard.api.JsonResponses.JSON;
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private final RunRecords runs;
  private final Backfill backfill;

  public StoredRecordReads(RunRecords runs, Backfill backfill) {
    this.runs = runs;
    this.backfill = backfill;
  }


  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public List<Map<String, Object>> activity(RecordReads.ActivityQuery query,
      Predicate<DashboardReads.ControllerKey> allowed) throws ReadRefused {
    try {
      return backfill.events(new dev.varroa.dashboard.records.ActivityQuery(query.cluster().orElse(null), query.namespace().orElse(null),
              query.controller().orElse(null), query.since().orElse(null), query.limit()), scopes(allowed))
          .stream().map(StoredRecordReads::view).toList();
    } catch (InvalidParameterException e) {
      throw ReadRefused.badParameter(e.parameter(), e.getMessage());
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  @Override
  public List<Map<String, Object>> runs(RecordReads.RunQuery query, Predicate<DashboardReads.RunKey> allowed)
      throws ReadRefused {
    try {
      return runs.runs(new dev.varroa.dashboard.records.RunQuery(query.cluster().orElse(null), query.namespace().orElse(null),
              query.controller().orElse(null), query.job().orElse(null), query.build().orElse(null),
              query.before().orElse(null), query.limit()), runScopes(allowed))
          .stream().map(StoredRecordReads::view).toList();
    } catch (InvalidParameterException e) {
      throw ReadRefused.badParameter(e.parameter(), e.getMessage());
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  @Override
  public Optional<RunView> run(String runId) throws ReadRefused {
    try {
      // authorization is decided by the caller on the run's Controller, so the lookup itself allows every scope
      RecordLookup<RunDetail> found = runs.run(runId, scope -> true);
      if (!(found instanceof RecordLookup.Found<RunDetail> detail)) {
        return Optional.empty();
      }
      RunDetail run = detail.value();
      Map<String, Object> body = new LinkedHashMap<>(view(run.run()));
      body.put("stages", VIEWS.convertValue(run.stages(), new TypeReference<List<Map<String, Object>>>() {}));
      body.put("tests", run.tests() == null ? null : view(run.tests()));
      return Optional.of(new RunView(new DashboardReads.ControllerKey(run.run().cluster(), run.run().namespace(),
          run.run().controller()), body));
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  @Override
  public Map<String, Object> buildStatistics(java.time.Instant now, int hours,
      Predicate<DashboardReads.ControllerKey> allowed) throws ReadRefused {
    try {
      return BuildStatistics.view(runs.statistics().hourly(now, hours, scopes(allowed)));
    } catch (InvalidParameterException e) {
      throw ReadRefused.badParameter(e.parameter(), e.getMessage());
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  @Override
  public List<Map<String, Object>> searchRuns(String needle, Predicate<DashboardReads.RunKey> allowed)
      throws ReadRefused {
    try {
      return runs.searchByJob(needle, RunRecords.MAX_SEARCH_RESULTS, runScopes(allowed)).stream()
          .map(StoredRecordReads::view).toList();
    } catch (InvalidParameterException e) {
      throw ReadRefused.badParameter("q", e.getMessage());
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  @Override
  public List<Map<String, Object>> jobSchedules(Predicate<DashboardReads.ControllerKey> allowed) throws ReadRefused {
    try {
      return runs.jobSchedules().all(scopes(allowed)).stream().map(StoredRecordReads::view).toList();
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  static Map<String, Object> view(Object record) {
    return VIEWS.convertValue(record, MAP);
  }

  static Predicate<ControllerScope> scopes(Predicate<DashboardReads.ControllerKey> allowed) {
    return scope -> allowed.test(new DashboardReads.ControllerKey(scope.cluster(), scope.namespace(),
        scope.controller()));
  }

  static Predicate<ControllerScope> runScopes(Predicate<DashboardReads.RunKey> allowed) {
    return scope -> allowed.test(new DashboardReads.RunKey(new DashboardReads.ControllerKey(scope.cluster(),
        scope.namespace(), scope.controller()), scope.job()));
  }

  private static ReadRefused unavailable(SQLException e) {
    return ReadRefused.unavailable("the build record store could not be read: " + e.getMessage()
        + " (VARROA_BFF_DSN)");
  }
}
