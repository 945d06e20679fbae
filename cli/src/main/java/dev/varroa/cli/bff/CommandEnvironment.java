package dev.varroa.cli.bff;

import java.time.Clock;

/**
 * What the root command gives the commands that talk to the BFF: where the login is kept and what time it is. An
 * interface here, so these commands need nothing from the root package that registers them.
 */
public interface CommandEnvironment {

  /** Where varroactl login keeps the server and token. */
  ConfigFolder configFolder();

  Clock clock();
}
