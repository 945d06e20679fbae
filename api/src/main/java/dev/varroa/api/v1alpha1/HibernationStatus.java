package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Whether the inactivity policy parked the controller, and what woke it last. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class HibernationStatus {
  @JsonPropertyDescription("When the controller was parked (RFC 3339); empty while it is awake.")
  public String since;

  @JsonPropertyDescription("Why it was parked.")
  public String reason;

  @JsonPropertyDescription("When the mite last saw a build, a queued item or a UI/API request (RFC 3339).")
  public String lastActivityAt;

  @JsonPropertyDescription("When a parked controller is woken ahead of its next timer-triggered job (RFC 3339).")
  public String nextTimerWakeAt;

  @JsonPropertyDescription("What woke it last: annotation, webhook, browser or timer.")
  public String lastWakeSource;

  @JsonPropertyDescription("When it was last woken (RFC 3339).")
  public String lastWakeAt;

  @JsonPropertyDescription("The last value of the varroa.dev/wake annotation that was acted on.")
  public String lastWakeRequest;

  @JsonPropertyDescription("The last value of the varroa.dev/hibernate-now annotation that was acted on, and what came"
      + " of it in lastHibernateOutcome.")
  public String lastHibernateRequest;

  @JsonPropertyDescription("Parked, or why the last varroa.dev/hibernate-now request could not park it (e.g. builds"
      + " running, spec.hibernation.idleMinutes unset).")
  public String lastHibernateOutcome;

  @JsonPropertyDescription("Webhook deliveries received while parked, replayed to Jenkins once it is up.")
  public Integer pendingDeliveries;
}
