// A batching line writer for the access log. stdout to a pipe or file is a synchronous write
// on Linux, one syscall per line; under load that costs more than the request itself, so lines
// from the same turn of the event loop go out in one write.

export interface LineSink {
  (line: string): void;
  flush(): void;
}

export function batchedLines(write: (chunk: string) => void): LineSink {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const chunk = `${pending.join('\n')}\n`;
    pending = [];
    write(chunk);
  };
  const sink = ((line: string) => {
    pending.push(line);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }) as LineSink;
  sink.flush = flush;
  return sink;
}
