package dev.varroa.gateway;

import dev.varroa.protocol.ReleaseVersion;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The gateway process: settings from the environment (see GatewaySettings.fromEnv), stops gracefully on SIGTERM. */
public final class GatewayMain {

  private static final Logger LOG = LoggerFactory.getLogger(GatewayMain.class);

  private GatewayMain() {
  }

  public static void main(String[] args) throws Exception {
    if (ReleaseVersion.requested(args)) {
      System.out.println(ReleaseVersion.line("gateway"));
      return;
    }
    Gateway gateway;
    try {
      gateway = Gateway.start(GatewaySettings.fromEnv());
    } catch (IllegalArgumentException | IOException e) {
      LOG.error("event=gateway_start_failed error=\"{}\"", e.getMessage());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        gateway.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        stopped.countDown();
      }
    }, "varroa-gateway-shutdown"));
    stopped.await();
  }
}
