package dev.varroa.operator.updatecenter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.UpdateCenterStatus;
import dev.varroa.operator.render.UpdateCenterEndpoints;
import java.time.Instant;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A managed UpdateCenter's status from one observation: URLs, what is missing and why, and the conditions. */
class UpdateCenterStatusAggregatorTest {
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  private static final UpdateCenterEndpoints ENDPOINTS = UpdateCenterEndpoints.managed("default", "varroa-system",
      Optional.of("PEM"));

  private static SortedMap<String, SortedSet<String>> wanted(String... plugins) {
    SortedMap<String, SortedSet<String>> wanted = new TreeMap<>();
    for (String plugin : plugins) {
      wanted.put(plugin, new TreeSet<>(java.util.Set.of("JenkinsVersionProfile lts")));
    }
    return wanted;
  }

  private static UpdateCenterReport report(String held, String missing, String reason) {
    TreeMap<String, String> missingMap = new TreeMap<>();
    if (missing != null) {
      missingMap.put(missing, reason);
    }
    return new UpdateCenterReport(new TreeSet<>(java.util.Set.of(held)), missingMap);
  }

  private static UpdateCenterStatus managed(UpdateCenterStatus previous, Optional<UpdateCenterReport> report,
      boolean upstream, String... wanted) {
    return UpdateCenterStatusAggregator.managed(previous, new UpdateCenterStatusAggregator.Observation(3, ENDPOINTS,
        wanted(wanted), report, report.isEmpty() ? Optional.of("connection refused") : Optional.empty(),
        Optional.empty(), upstream), NOW);
  }

  @Test
  void listsEachMissingVersionWithTheServicesReasonAndStallsWithoutAnUpstream() {
    UpdateCenterStatus status = managed(new UpdateCenterStatus(),
        Optional.of(report("git:5.8.0", "credentials:1.0", "not held and no upstream update site is configured")),
        false, "git:5.8.0", "credentials:1.0");

    assertThat(status.url).isEqualTo("http://varroa-uc-default.varroa-system.svc/update-center.json");
    assertThat(status.signingCA).isEqualTo("PEM");
    assertThat(status.availablePlugins).containsExactly("git:5.8.0");
    assertThat(status.missing).singleElement().satisfies(m -> {
      assertThat(m.id).isEqualTo("credentials");
      assertThat(m.version).isEqualTo("1.0");
      assertThat(m.reason).contains("no upstream");
    });
    assertThat(status.condition(Condition.READY)).hasValueSatisfying(c -> {
      assertThat(c.status).isEqualTo(Condition.Status.False);
      assertThat(c.reason).isEqualTo("PluginsMissing");
      assertThat(c.message).contains("credentials 1.0 (wanted by JenkinsVersionProfile lts)").contains("fix:");
    });
    assertThat(status.condition(Condition.STALLED)).hasValueSatisfying(c -> assertThat(c.status)
        .isEqualTo(Condition.Status.True));
  }

  @Test
  void withAnUpstreamItKeepsReconcilingInsteadOfStalling() {
    UpdateCenterStatus status = managed(new UpdateCenterStatus(),
        Optional.of(report("git:5.8.0", "credentials:1.0", "fetching")), true, "git:5.8.0", "credentials:1.0");

    assertThat(status.condition(Condition.RECONCILING)).hasValueSatisfying(c -> assertThat(c.status)
        .isEqualTo(Condition.Status.True));
    assertThat(status.condition(Condition.STALLED)).hasValueSatisfying(c -> assertThat(c.status)
        .isEqualTo(Condition.Status.False));
  }

  @Test
  void isReadyWhenEveryWantedVersionIsHeld() {
    UpdateCenterStatus status = managed(new UpdateCenterStatus(), Optional.of(report("git:5.8.0", null, null)), false,
        "git:5.8.0");

    assertThat(status.missing).isEmpty();
    assertThat(status.condition(Condition.READY)).hasValueSatisfying(c -> {
      assertThat(c.status).isEqualTo(Condition.Status.True);
      assertThat(c.reason).isEqualTo("AllPluginsHeld");
    });
  }

  @Test
  void aWantedVersionTheServiceHasNotReadYetSaysSo() {
    UpdateCenterStatus status = managed(new UpdateCenterStatus(), Optional.of(report("git:5.8.0", null, null)), false,
        "git:5.8.0", "git:5.9.0");

    assertThat(status.missing).singleElement().satisfies(m -> assertThat(m.reason).contains("has not read the new wanted list"));
  }

  @Test
  void anUnreachableServiceKeepsTheLastKnownHoldingsAndSaysWhy() {
    UpdateCenterStatus before = managed(new UpdateCenterStatus(), Optional.of(report("git:5.8.0", null, null)), false,
        "git:5.8.0");
    UpdateCenterStatus after = managed(before, Optional.empty(), false, "git:5.8.0");

    assertThat(after.availablePlugins).containsExactly("git:5.8.0");
    assertThat(after.condition(Condition.READY)).hasValueSatisfying(c -> {
      assertThat(c.reason).isEqualTo("ServiceUnreachable");
      assertThat(c.message).contains("connection refused");
    });
  }

  @Test
  void beforeTheFirstAnswerNothingIsListedAsHeldOrMissing() {
    UpdateCenterStatus status = managed(new UpdateCenterStatus(), Optional.empty(), false, "git:5.8.0");

    assertThat(status.availablePlugins).isNull();
    assertThat(status.missing).isEmpty();
    assertThat(status.wanted).isEqualTo(1);
  }
}
