package dev.varroa.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

/** Asserts that every field written appears, with the same value, in what was read back. */
final class SubsetAssertion {
  private final String object;

  SubsetAssertion(String object) {
    this.object = object;
  }

  void assertContains(String path, Object written, Object read) {
    if (written == null) {
      return;
    }
    if (written instanceof Map<?, ?> w) {
      assertThat(read).as("%s: %s is an object", object, path).isInstanceOf(Map.class);
      Map<?, ?> r = (Map<?, ?>) read;
      w.forEach((key, value) -> assertContains(path + "." + key, value, r.get(key)));
    } else if (written instanceof List<?> w) {
      assertThat(read).as("%s: %s is a list", object, path).isInstanceOf(List.class);
      List<?> r = (List<?>) read;
      assertThat(r).as("%s: %s length", object, path).hasSameSizeAs(w);
      for (int i = 0; i < w.size(); i++) {
        assertContains(path + "[" + i + "]", w.get(i), r.get(i));
      }
    } else {
      assertThat(String.valueOf(read)).as("%s: %s", object, path).isEqualTo(String.valueOf(written));
    }
  }
}
