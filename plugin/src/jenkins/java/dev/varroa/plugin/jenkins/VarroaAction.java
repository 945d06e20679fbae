package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.schedules.ScheduleInventory;
import hudson.Extension;
import hudson.model.Job;
import hudson.model.RootAction;
import hudson.triggers.TimerTrigger;
import hudson.triggers.Trigger;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import jenkins.model.Jenkins;
import jenkins.model.ParameterizedJobMixIn;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;
import org.kohsuke.stapler.verb.GET;

/**
 * The {@code /varroa} URL space, Administer only. {@code GET /varroa/schedules}: every job's TimerTrigger specs as a
 * JobScheduleInventory (protobuf JSON), which the mite polls with its bearer token. {@code GET /varroa/activity}:
 * {@code {"lastUserRequestEpochMillis": N}}, the last use of Jenkins truncated to the minute (0 = none since start),
 * which the mite reports as observed state. {@code GET /varroa/spool}: the spool's pending events, bytes, cap and the
 * count of events refused at the cap.
 * Jenkins API: hudson.model.RootAction (urlName "varroa"), hudson.triggers.TimerTrigger / Trigger#getSpec,
 * jenkins.model.ParameterizedJobMixIn.ParameterizedJob#getTriggers.
 */
@Extension
public final class VarroaAction implements RootAction {

  @Override
  public String getUrlName() {
    return "varroa";
  }

  @Override
  public String getIconFileName() {
    return null; // not in the side panel
  }

  @Override
  public String getDisplayName() {
    return "Varroa";
  }

  @GET
  public void doSchedules(StaplerRequest2 request, StaplerResponse2 response) throws IOException {
    Jenkins.get().checkPermission(Jenkins.ADMINISTER);
    Map<String, String> specs = new TreeMap<>();
    for (Job<?, ?> job : Jenkins.get().allItems(Job.class)) {
      if (job instanceof ParameterizedJobMixIn.ParameterizedJob<?, ?> parameterized) {
        for (Trigger<?> trigger : parameterized.getTriggers().values()) {
          if (trigger instanceof TimerTrigger) {
            specs.put(job.getFullName(), trigger.getSpec());
          }
        }
      }
    }
    response.setContentType("application/json;charset=UTF-8");
    response.getWriter().write(ScheduleInventory.toJson(VarroaRuntime.core().schedules().snapshot(specs)));
  }

  /** The last use of Jenkins by anyone but the mite, kubelet probes and agents, for the inactivity policy. */
  @GET
  public void doActivity(StaplerRequest2 request, StaplerResponse2 response) throws IOException {
    Jenkins.get().checkPermission(Jenkins.ADMINISTER);
    response.setContentType("application/json;charset=UTF-8");
    response.getWriter().write(VarroaRuntime.core().activity().toJson());
  }

  @GET
  public void doSpool(StaplerRequest2 request, StaplerResponse2 response) throws IOException {
    Jenkins.get().checkPermission(Jenkins.ADMINISTER);
    response.setContentType("application/json;charset=UTF-8");
    response.getWriter().write(VarroaRuntime.core().spool().status().toJson());
  }
}
