package dev.varroa.operator.backup;

import dev.varroa.protocol.ControllerIdentity;

/** Jenkins' quiet-down, asked of the mite over the control channel (OneShot QUIET_DOWN / CANCEL_QUIET_DOWN). */
public interface QuietDown {
  /** Asks for quiet-down; returns at once, the mite reports quietingDown in its observed state. */
  void start(ControllerIdentity controller);

  /** Cancels a quiet-down this backup asked for. */
  void cancel(ControllerIdentity controller);

  /** Without a control channel there is no mite to ask. */
  QuietDown NONE = new QuietDown() {
    @Override
    public void start(ControllerIdentity controller) {}

    @Override
    public void cancel(ControllerIdentity controller) {}
  };
}
