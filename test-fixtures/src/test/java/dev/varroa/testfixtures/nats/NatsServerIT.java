package dev.varroa.testfixtures.nats;

import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.JetStreamSubscription;
import io.nats.client.KeyValue;
import io.nats.client.Message;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.PublishOptions;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.PublishAck;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(NatsServerExtension.class)
class NatsServerIT {

    private static final Duration FETCH_WAIT = Duration.ofSeconds(5);

    @Test
    void listensOnLoopback(NatsServer nats) {
        assertThat(nats.url()).matches("nats://127\\.0\\.0\\.1:\\d+");
    }

    @Test
    void deliversPublishedMessagesToADurablePullConsumer(NatsServer nats) throws Exception {
        try (Connection connection = nats.connect()) {
            connection.jetStreamManagement().addStream(StreamConfiguration.builder()
                    .name("builds_it")
                    .subjects("builds.>")
                    .storageType(StorageType.File)
                    .build());
            JetStream jetStream = connection.jetStream();

            PublishAck ack = jetStream.publish("builds.c1.started", bytes("build #1 started"));
            JetStreamSubscription subscription = jetStream.subscribe("builds.>",
                    PullSubscribeOptions.builder().durable("recorder").build());
            List<Message> messages = subscription.fetch(1, FETCH_WAIT);

            assertThat(ack.getStream()).isEqualTo("builds_it");
            assertThat(messages).singleElement().satisfies(message -> {
                assertThat(message.getSubject()).isEqualTo("builds.c1.started");
                assertThat(new String(message.getData(), StandardCharsets.UTF_8)).isEqualTo("build #1 started");
            });
            messages.get(0).ack();
        }
    }

    @Test
    void dropsARepublishedMessageWithTheSameId(NatsServer nats) throws Exception {
        try (Connection connection = nats.connect()) {
            connection.jetStreamManagement().addStream(StreamConfiguration.builder()
                    .name("claims_it")
                    .subjects("claims.>")
                    .build());
            JetStream jetStream = connection.jetStream();
            PublishOptions sameId = PublishOptions.builder().messageId("claim-42").build();

            PublishAck first = jetStream.publish("claims.c1", bytes("claim"), sameId);
            PublishAck second = jetStream.publish("claims.c1", bytes("claim"), sameId);

            assertThat(first.isDuplicate()).isFalse();
            assertThat(second.isDuplicate()).isTrue();
            assertThat(second.getSeqno()).isEqualTo(first.getSeqno());
        }
    }

    @Test
    void readsBackAKeyValueEntry(NatsServer nats) throws Exception {
        try (Connection connection = nats.connect()) {
            connection.keyValueManagement().create(KeyValueConfiguration.builder()
                    .name("settings_it")
                    .storageType(StorageType.File)
                    .build());
            KeyValue settings = connection.keyValue("settings_it");

            settings.put("heartbeat", "15s");

            assertThat(settings.get("heartbeat").getValueAsString()).isEqualTo("15s");
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
