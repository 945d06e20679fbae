package dev.varroa.benchmarks.latency;

import dev.varroa.gateway.GatewaySettings;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.mite.v1.File;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Desired-state commands as they cross NATS from the operator to the gateway: a plain subscriber on the
 * gateway's command subject gets each request when the gateway does (core NATS gives every subscriber a
 * copy), and never answers. Only the JCasC files are kept; secret files and the Jenkins token are dropped.
 */
public final class DesiredStateCommands implements AutoCloseable {

  /** One command seen on the bus: when, and the JCasC it carried. */
  private record Sent(Instant at, String jcasc) {
  }

  private final Connection nats;
  private final Dispatcher dispatcher;
  private final List<Sent> sent = new ArrayList<>();
  private int unreadable;

  /** Subscribes on {@code nats}, which this object closes. */
  public DesiredStateCommands(Connection nats, String gatewayId) throws InterruptedException, TimeoutException {
    this.nats = nats;
    this.dispatcher = nats.createDispatcher(this::saw);
    dispatcher.subscribe(BusNames.gatewayCommands(GatewaySettings.DEFAULT_CLUSTER_NAME, gatewayId));
    try {
      // the subscription is on the server before the first commit is made
      nats.flush(Duration.ofSeconds(10));
    } catch (TimeoutException e) {
      throw new TimeoutException("NATS did not confirm the subscription on "
          + BusNames.gatewayCommands(GatewaySettings.DEFAULT_CLUSTER_NAME, gatewayId));
    }
  }

  private void saw(Message message) {
    Instant at = Instant.now();
    try {
      GatewayCommand command = GatewayCommand.parseFrom(message.getData());
      if (command.getCommand().hasDesiredState()) {
        String jcasc = command.getCommand().getDesiredState().getJcascFilesList().stream()
            .map(File::getContent).map(content -> content.toStringUtf8()).collect(Collectors.joining("\n"));
        synchronized (this) {
          sent.add(new Sent(at, jcasc));
          notifyAll();
        }
      }
    } catch (InvalidProtocolBufferException e) {
      synchronized (this) {
        unreadable++;
      }
    }
  }

  /** When the first desired state whose JCasC contains {@code marker} went to the gateway, waiting until {@code deadline}. */
  public synchronized Instant await(String marker, Instant deadline) throws InterruptedException, TimeoutException {
    while (true) {
      for (Sent command : sent) {
        if (command.jcasc().contains(marker)) {
          return command.at();
        }
      }
      long left = Duration.between(Instant.now(), deadline).toMillis();
      if (left <= 0) {
        throw new TimeoutException("no desired-state command with '" + marker + "' crossed NATS by " + deadline
            + " (" + sent.size() + " commands seen, " + unreadable + " unreadable)");
      }
      wait(left);
    }
  }

  @Override
  public void close() throws InterruptedException {
    nats.closeDispatcher(dispatcher);
    nats.close();
  }
}
