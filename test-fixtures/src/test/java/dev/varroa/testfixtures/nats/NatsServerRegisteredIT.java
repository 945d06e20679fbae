package dev.varroa.testfixtures.nats;

import io.nats.client.Connection;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

class NatsServerRegisteredIT {

    @RegisterExtension
    static final NatsServerExtension NATS = new NatsServerExtension();

    @Test
    void exposesTheServerThroughTheRegisteredField(NatsServer injected) throws Exception {
        assertThat(NATS.server()).isEqualTo(injected);
        try (Connection connection = NATS.server().connect()) {
            assertThat(connection.getStatus()).isEqualTo(Connection.Status.CONNECTED);
        }
    }

    @Nested
    class InANestedClass {

        @Test
        void reusesTheEnclosingClassServer(NatsServer injected) {
            assertThat(injected).isEqualTo(NATS.server());
        }
    }
}
