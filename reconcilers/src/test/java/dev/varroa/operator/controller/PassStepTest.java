package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A step's unexpected failure names the step, once, for the error status. */
class PassStepTest {
  @Test
  void returnsTheStepsOutcome() {
    assertThat(PassStep.RENDER.run(() -> "objects")).isEqualTo("objects");
  }

  @Test
  void anUnexpectedExceptionNamesTheStepAndKeepsItsCause() {
    IllegalStateException cause = new IllegalStateException("409 Conflict on StatefulSet ci-1a2b3c4d");
    assertThatThrownBy(() -> PassStep.APPLY.run(() -> {
      throw cause;
    })).isInstanceOfSatisfying(PassStep.Failure.class, failure -> {
      assertThat(failure.step()).isEqualTo(PassStep.APPLY);
      assertThat(failure.getCause()).isSameAs(cause);
      assertThat(failure.getMessage()).contains("step apply", "409 Conflict");
    });
  }

  @Test
  void aFailureInsideANestedStepKeepsTheInnerStepsName() {
    assertThatThrownBy(() -> PassStep.DELIVERY.run(() -> PassStep.HOME.run(() -> {
      throw new IllegalArgumentException("x");
    }))).isInstanceOfSatisfying(PassStep.Failure.class, f -> assertThat(f.step()).isEqualTo(PassStep.HOME));
  }
}
