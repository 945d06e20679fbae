package dev.varroa.dashboard.api;

import dev.varroa.dashboard.http.InternalErrors;
import dev.varroa.dashboard.identity.Authenticated;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.dashboard.identity.CallerAuthenticator;
import dev.varroa.dashboard.reads.DashboardReads;
import dev.varroa.dashboard.reads.Parameters;
import dev.varroa.dashboard.reads.ReadRefused;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The read-only API (docs/dashboard-api.md): every route answers GET (and HEAD) only, after the caller is
 * authenticated; what they may see is decided in {@link DashboardReads}.
 */
public final class ReadApiServlet extends HttpServlet {

  private final DashboardReads reads;
  private final CallerAuthenticator authenticator;
  private final LiveStreams live;

  public ReadApiServlet(DashboardReads reads, CallerAuthenticator authenticator, LiveStreams live) {
    this.reads = reads;
    this.authenticator = authenticator;
    this.live = live;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String method = request.getMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      response.setHeader("Allow", "GET, HEAD");
      JsonResponses.error(response, 405, "method_not_allowed", "the Varroa API only reads: " + method
          + " is not served; change Varroa through its Kubernetes resources (GitOps)");
      return;
    }
    Authenticated caller;
    try {
      caller = authenticator.authenticateWithEnd(request);
    } catch (CallerAuthenticator.Unauthenticated e) {
      JsonResponses.unauthenticated(response, e.getMessage());
      return;
    }
    List<String> path = segments(request);
    Parameters query = parameters(request);
    try {
      route(caller, path, query, request, response);
    } catch (ReadRefused refused) {
      if (!response.isCommitted()) {
        JsonResponses.refused(response, refused);
      }
    } catch (RuntimeException e) {
      InternalErrors.answer(request, response, e);
    }
  }

  private void route(Authenticated authenticated, List<String> path, Parameters query, HttpServletRequest request,
      HttpServletResponse response) throws ReadRefused, IOException {
    Caller caller = authenticated.caller();
    String first = path.isEmpty() ? "" : path.get(0);
    switch (first) {
      case "me" -> exactly(path, 1, () -> ok(response, reads.me(caller)));
      case "clusters" -> exactly(path, 1, () -> ok(response, reads.clusters(caller)));
      case "controllers" -> {
        if (path.size() == 1) {
          ok(response, reads.controllers(caller, query));
        } else if (path.size() == 3) {
          ok(response, reads.controller(caller, path.get(1), path.get(2), query));
        } else {
          notFound(request);
        }
      }
      case "broodoperations" -> {
        if (path.size() == 1) {
          ok(response, reads.brood().operations(caller, query));
        } else if (path.size() == 4) {
          ok(response, reads.brood().operation(caller, path.get(1), path.get(2), path.get(3)));
        } else {
          notFound(request);
        }
      }
      case "broodschedules" -> exactly(path, 1, () -> ok(response, reads.brood().schedules(caller, query)));
      case "cells" -> exactly(path, 1, () -> ok(response, reads.cells().pools(caller, query)));
      case "teams" -> exactly(path, 1, () -> ok(response, reads.cells().teams(caller, query)));
      case "pipelines" -> exactly(path, 1, () -> ok(response, reads.pipelines().list(caller, query)));
      case "statistics" -> exactly(path, 2, () -> {
        if (!"runs".equals(path.get(1))) {
          notFound(request);
        }
        ok(response, reads.runStatistics(caller, query));
      });
      case "pipeline-runs" -> exactly(path, 2, () -> ok(response, reads.pipelineRuns().status(caller, path.get(1))));
      case "search" -> exactly(path, 1, () -> ok(response, reads.search(caller, query)));
      case "activity" -> {
        if (path.size() == 1) {
          ok(response, reads.activity(caller, query));
        } else if (path.size() == 2 && "stream".equals(path.get(1))) {
          live.activity(authenticated, query, request, response);
        } else {
          notFound(request);
        }
      }
      case "runs" -> {
        if (path.size() == 1) {
          ok(response, reads.runs(caller, query));
        } else if (path.size() == 2) {
          ok(response, reads.run(caller, path.get(1)));
        } else if (path.size() == 3 && "log".equals(path.get(2))) {
          live.logRange(caller, path.get(1), query, response);
        } else if (path.size() == 4 && "log".equals(path.get(2)) && "stream".equals(path.get(3))) {
          live.logStream(authenticated, path.get(1), query, request, response);
        } else {
          notFound(request);
        }
      }
      default -> notFound(request);
    }
  }

  private interface Read {
    void run() throws ReadRefused, IOException;
  }

  private static void exactly(List<String> path, int size, Read read) throws ReadRefused, IOException {
    if (path.size() != size) {
      throw ReadRefused.notFound("no such route: /" + String.join("/", path));
    }
    read.run();
  }

  private static void notFound(HttpServletRequest request) throws ReadRefused {
    throw ReadRefused.notFound("no such route: " + request.getRequestURI() + " (docs/dashboard-api.md lists them)");
  }

  private static void ok(HttpServletResponse response, Object body) throws IOException {
    JsonResponses.write(response, 200, body);
  }

  private static List<String> segments(HttpServletRequest request) {
    String uri = request.getRequestURI();
    String context = request.getContextPath();
    String path = uri.substring(context.length());
    return java.util.Arrays.stream(path.split("/")).filter(s -> !s.isEmpty())
        .map(s -> URLDecoder.decode(s, StandardCharsets.UTF_8)).toList();
  }

  private static Parameters parameters(HttpServletRequest request) {
    Map<String, String> values = new HashMap<>();
    request.getParameterMap().forEach((name, all) -> {
      if (all.length > 0) {
        values.put(name, all[0]);
      }
    });
    return new Parameters(values);
  }
}
