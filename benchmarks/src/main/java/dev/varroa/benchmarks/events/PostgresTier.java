package dev.varroa.benchmarks.events;

import dev.varroa.testfixtures.postgres.PostgresServer;

/** PostgreSQL killed with SIGKILL (postmaster and backends) and started again on its data directory: crash recovery. */
final class PostgresTier implements Tier {

  private final PostgresServer server;

  PostgresTier(PostgresServer server) {
    this.server = server;
  }

  @Override
  public String name() {
    return "postgresql";
  }

  @Override
  public void start() throws Exception {
    server.start();
  }

  @Override
  public void kill() throws Exception {
    server.kill();
  }

  @Override
  public void close() {
    // the benchmark's teardown stops the server
  }
}
