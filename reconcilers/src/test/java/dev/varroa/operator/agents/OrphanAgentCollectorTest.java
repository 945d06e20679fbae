package dev.varroa.operator.agents;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OrphanAgentCollectorTest {
  private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");

  private static Pod pod(String name, Instant created) {
    return new PodBuilder().withNewMetadata().withName(name).withCreationTimestamp(created.toString()).endMetadata()
        .build();
  }

  @Test
  void removesOnlyPodsWhoseNodeJenkinsNoLongerHas() {
    List<Pod> pods = List.of(pod("maven-kept", NOW.minusSeconds(3600)), pod("maven-gone", NOW.minusSeconds(3600)));
    assertThat(OrphanAgentCollector.orphans(pods, Set.of("maven-kept"), NOW, Duration.ofMinutes(5)))
        .containsExactly("maven-gone");
  }

  @Test
  void leavesAPodYoungerThanTheGraceBeingLaunched() {
    List<Pod> pods = List.of(pod("maven-new", NOW.minusSeconds(60)));
    assertThat(OrphanAgentCollector.orphans(pods, Set.of(), NOW, Duration.ofMinutes(5))).isEmpty();
  }
}
