// Console text as Jenkins writes it, made readable: its hidden console notes and colour codes are dropped.

// ESC[8m ... ESC[0m wraps Jenkins' serialized console notes; other CSI sequences are colours.
const NOTE = /\u001b\[8m[\s\S]*?\u001b\[0m/g;
const CSI = /\u001b\[[0-9;?]*[ -\/]*[@-~]/g;

/** Cleans a stream of chunks; a sequence cut by a chunk boundary is held back until the next chunk. */
export class ConsoleText {
  private held = '';

  push(chunk: string): string {
    let text = this.held + chunk;
    this.held = '';
    const noteStart = text.lastIndexOf('\u001b[8m');
    if (noteStart >= 0 && text.indexOf('\u001b[0m', noteStart) < 0) {
      this.held = text.slice(noteStart);
      text = text.slice(0, noteStart);
    } else {
      const esc = text.lastIndexOf('\u001b');
      if (esc >= 0 && !/^\u001b\[[0-9;?]*[ -\/]*[@-~]/.test(text.slice(esc))) {
        this.held = text.slice(esc);
        text = text.slice(0, esc);
      }
    }
    return text.replace(NOTE, '').replace(CSI, '');
  }

  /** What is still held at the end of the log, as it is. */
  flush(): string {
    const rest = this.held.replace(CSI, '');
    this.held = '';
    return rest;
  }
}
