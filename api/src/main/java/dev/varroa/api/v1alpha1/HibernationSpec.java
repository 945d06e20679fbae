package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/** The inactivity policy that parks an unused controller (phase Hibernated); see docs/hibernation.md. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class HibernationSpec {
  /** How long before its next timer-triggered job a parked controller wakes, when wakeAheadMinutes is omitted. */
  public static final int DEFAULT_WAKE_AHEAD_MINUTES = 5;

  @Min(5)
  @Max(525600)
  @JsonPropertyDescription(
      "Park the controller after this many minutes with no running or queued build and no UI or API use (the mite"
          + " observes). Omitted: never hibernate.")
  public Integer idleMinutes;

  @Min(0)
  @Max(1440)
  @Default("5")
  @JsonPropertyDescription("Minutes before its next timer-triggered job that a parked controller is woken.")
  public Integer wakeAheadMinutes;
}
