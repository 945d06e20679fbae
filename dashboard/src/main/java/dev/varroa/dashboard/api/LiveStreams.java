package dev.varroa.dashboard.api;

import dev.varroa.dashboard.identity.Caller;
import dev.varroa.dashboard.reads.Parameters;
import dev.varroa.dashboard.reads.ReadRefused;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Console logs by byte range and live, and live activity, as Server-Sent Events. */
public class LiveStreams {

  public void activity(Caller caller, Parameters query, HttpServletRequest request, HttpServletResponse response)
      throws ReadRefused, IOException {
    throw ReadRefused.unavailable("live activity is not served yet");
  }

  public void logRange(Caller caller, String runId, Parameters query, HttpServletResponse response)
      throws ReadRefused, IOException {
    throw ReadRefused.notFound("run " + runId + " has no console log: the build record store is not enabled");
  }

  public void logStream(Caller caller, String runId, Parameters query, HttpServletRequest request,
      HttpServletResponse response) throws ReadRefused, IOException {
    throw ReadRefused.notFound("run " + runId + " has no console log: the build record store is not enabled");
  }
}
