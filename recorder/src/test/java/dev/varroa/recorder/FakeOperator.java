package dev.varroa.recorder;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.CellWake;
import dev.varroa.protocol.bus.v1.CellWakeResult;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A cluster's operator as the recorder meets it: answers cell wakes and actions, and keeps what it was sent. */
final class FakeOperator implements AutoCloseable {
  final List<CellWake> wakes = new CopyOnWriteArrayList<>();
  final List<ActionRequest> actions = new CopyOnWriteArrayList<>();
  private final Connection nats;
  private final Dispatcher dispatcher;

  FakeOperator(Connection nats, String cluster, CellWakeResult wake, Function<ActionRequest, ActionResult> act) {
    this.nats = nats;
    dispatcher = nats.createDispatcher();
    dispatcher.subscribe(BusNames.clusterCellWake(cluster), BusNames.OPERATOR_QUEUE_GROUP, message -> {
      wakes.add(parse(() -> CellWake.parseFrom(message.getData())));
      nats.publish(message.getReplyTo(), wake.toByteArray());
    });
    dispatcher.subscribe(BusNames.clusterActions(cluster), BusNames.OPERATOR_QUEUE_GROUP, message -> {
      ActionRequest request = parse(() -> ActionRequest.parseFrom(message.getData()));
      actions.add(request);
      nats.publish(message.getReplyTo(), act.apply(request).toByteArray());
    });
    try {
      nats.flush(Duration.ofSeconds(2));
    } catch (Exception e) {
      throw new IllegalStateException("the fake operator's subscriptions did not reach NATS", e);
    }
  }

  private interface Parse<T> {
    T parse() throws InvalidProtocolBufferException;
  }

  private static <T> T parse(Parse<T> parse) {
    try {
      return parse.parse();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("the recorder sent the fake operator an unreadable message", e);
    }
  }

  @Override
  public void close() {
    nats.closeDispatcher(dispatcher);
  }
}
