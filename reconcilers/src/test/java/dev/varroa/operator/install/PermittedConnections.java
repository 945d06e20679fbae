package dev.varroa.operator.install;

import dev.varroa.operator.channel.ControlChannel;
import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.time.Duration;
import java.util.Queue;

/** Connections to a NATS server running the chart's rendered config, as one of its users, that record refusals. */
final class PermittedConnections {
  private PermittedConnections() {}

  /**
   * @param inboxPrefix the user's reply prefix (the server allows only its own)
   * @param errors where the server's errors for this connection land, such as a permissions violation
   */
  static Connection connect(String url, String user, String password, String inboxPrefix, Queue<String> errors)
      throws Exception {
    return Nats.connect(new Options.Builder().server(url).userInfo(user, password).inboxPrefix(inboxPrefix)
        .connectionTimeout(Duration.ofSeconds(5)).maxReconnects(0)
        .errorListener(new ErrorListener() {
          @Override
          public void errorOccurred(Connection connection, String error) {
            errors.add(error);
          }
        }).build());
  }

  /** Closes a control channel with a test's other resources. */
  record ControlChannelHandle(ControlChannel channel) implements AutoCloseable {
    @Override
    public void close() throws InterruptedException {
      channel.close();
    }
  }
}
