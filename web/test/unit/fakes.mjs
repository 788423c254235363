// Test doubles for the store: a core that maps text to a tiny deterministic result and counts
// its calls, and an animation frame that runs only when the test says so.

export function fakeCore({ maxMapWidth = 1024 } = {}) {
  const calls = [];
  return {
    calls,
    limits: { maxMapWidth, maxMapTokens: 50 },
    // The real core also counts draws and the softmax; T²·d is enough to tell small from large.
    mapMultiplyAdds: (state) => [...state.text].length ** 2 * state.d,
    attentionMap(state) {
      calls.push(state);
      const tokens = [...state.text];
      if (tokens.length > 50) throw new Error(`the text makes ${tokens.length} tokens; at most 50`);
      const T = tokens.length;
      const weights = new Float32Array(T * T).fill(1 / T);
      return { tokens, T, d: state.d, weights, scale: 1 / Math.sqrt(state.d) };
    },
  };
}

export function fakeFrames() {
  const queue = [];
  return {
    request: (callback) => {
      queue.push(callback);
      return queue.length;
    },
    pending: () => queue.length,
    flush() {
      const callbacks = queue.splice(0);
      for (const callback of callbacks) callback();
    },
  };
}
