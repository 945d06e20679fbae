package dev.varroa.benchmarks.events;

import dev.varroa.benchmarks.channel.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** A component's main in its own JVM (its own runtime classpath), started again after each kill with the same environment. */
final class JvmTier implements Tier {

  private static final Duration READY = Duration.ofSeconds(60);
  private static final Duration GRACEFUL_STOP = Duration.ofSeconds(10);

  private final String name;
  private final String classpath;
  private final String mainClass;
  private final List<String> args;
  private final Map<String, String> env;
  private final Path logs;
  private final Callable<Boolean> ready;
  private int starts;
  private ChildJvm jvm;

  JvmTier(String name, String classpath, String mainClass, List<String> args, Map<String, String> env, Path logs,
      Callable<Boolean> ready) {
    this.name = name;
    this.classpath = classpath;
    this.mainClass = mainClass;
    this.args = List.copyOf(args);
    this.env = Map.copyOf(env);
    this.logs = logs;
    this.ready = ready;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void start() throws Exception {
    jvm = ChildJvm.start(name, List.of("-Xmx256m", "-XX:+UseSerialGC"), classpath, mainClass, args, env,
        logs.resolve(name + "-" + (++starts) + ".log"), GRACEFUL_STOP);
    Readiness.await(name + " ready", READY, () -> {
      jvm.requireAlive();
      return ready.call();
    });
  }

  ChildJvm jvm() {
    return jvm;
  }

  @Override
  public void kill() throws Exception {
    jvm.kill();
  }

  @Override
  public void close() throws Exception {
    if (jvm != null) {
      jvm.close();
    }
  }
}
