package dev.varroa.testfixtures.process;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What a main prints to System.out while it runs in the test's JVM, e.g. for {@code --version}. */
public final class StandardOutput {

  /** The code a main runs; it may throw what the main throws. */
  @FunctionalInterface
  public interface Run {
    void run() throws Exception;
  }

  private StandardOutput() {
  }

  public static String of(Run main) throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      main.run();
    } finally {
      System.setOut(stdout);
    }
    return printed.toString(StandardCharsets.UTF_8);
  }
}
