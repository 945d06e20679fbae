package dev.varroa.dashboard.api;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One open text/event-stream response: events written whole and flushed, from any thread, one at a time. A write
 * that fails (the client went away) closes the stream and runs its close actions once.
 */
final class ServerSentEvents {

  private final AsyncContext async;
  private final ServletOutputStream out;
  private final List<Runnable> onClose = new ArrayList<>();
  private boolean closed;

  private ServerSentEvents(AsyncContext async, ServletOutputStream out) {
    this.async = async;
    this.out = out;
  }

  static ServerSentEvents open(HttpServletRequest request, HttpServletResponse response) throws IOException {
    response.setStatus(200);
    response.setContentType("text/event-stream");
    response.setCharacterEncoding("UTF-8");
    response.setHeader("Cache-Control", "no-store");
    // proxies such as nginx would otherwise hold events back until a buffer fills
    response.setHeader("X-Accel-Buffering", "no");
    AsyncContext async = request.startAsync();
    async.setTimeout(0);
    ServerSentEvents stream = new ServerSentEvents(async, response.getOutputStream());
    async.addListener(new AsyncListener() {
      @Override
      public void onComplete(AsyncEvent event) {
        stream.close();
      }

      @Override
      public void onTimeout(AsyncEvent event) {
        stream.close();
      }

      @Override
      public void onError(AsyncEvent event) {
        stream.close();
      }

      @Override
      public void onStartAsync(AsyncEvent event) {
      }
    });
    return stream;
  }

  /**
   * Sends the first bytes, which commit the headers: a client's EventSource reports the stream open only then, so a
   * stream calls this once it is subscribed and nothing sent after the client saw it open can be missed.
   */
  void subscribed() {
    comment("varroa");
  }

  /** Runs when the stream closes, or at once if it has. */
  void onClose(Runnable action) {
    boolean now;
    synchronized (this) {
      now = closed;
      if (!now) {
        onClose.add(action);
      }
    }
    if (now) {
      action.run();
    }
  }

  /** An event; data may span lines (each becomes a data: line). */
  boolean event(String name, String id, String data) {
    StringBuilder text = new StringBuilder();
    if (id != null) {
      text.append("id: ").append(id).append('\n');
    }
    text.append("event: ").append(name).append('\n');
    for (String line : data.split("\n", -1)) {
      text.append("data: ").append(line).append('\n');
    }
    return write(text.append('\n').toString());
  }

  /** A comment line: keeps idle connections open through proxies and finds clients that went away. */
  boolean comment(String text) {
    return write(": " + text + "\n\n");
  }


  private boolean write(String text) {
    synchronized (this) {
      if (closed) {
        return false;
      }
      try {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
        return true;
      } catch (IOException | IllegalStateException e) {
        // the client went away
      }
    }
    close();
    return false;
  }

  /** Ends the response and runs the close actions, once. */
  void close() {
    List<Runnable> actions;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      actions = List.copyOf(onClose);
      onClose.clear();
    }
    try {
      async.complete();
    } catch (IllegalStateException e) {
      // already completed by the container
    }
    actions.forEach(Runnable::run);
  }
}
