package dev.varroa.protocol.bus;

import java.util.Optional;

/** Where a component's NATS credential comes from; asked again before every connect attempt, so a rotation needs no restart. */
@FunctionalInterface
public interface BusCredentialSource {

  /** The current credential; empty when none is configured or it cannot be read now (the attempt then fails auth). */
  Optional<BusCredential> read();
}
