// Test doubles for the store: a core that maps text to a tiny deterministic result and counts
// its calls, and an animation frame that runs only when the test says so.

// A refusal as core.js throws it: the core's message and the request field it blames.
export const refusal = (message, field) => Object.assign(new Error(message), { field });

// refuse(state): a refusal for this request, or null to compute it.
export function fakeCore({ maxMapWidth = 1024, refuse = () => null } = {}) {
  const calls = [];
  const counted = []; // the texts tokenCount was asked to count
  return {
    calls,
    counted,
    limits: { maxMapWidth, maxMapTokens: 50 },
    tokenCount(state) {
      counted.push(state.text);
      return [...state.text].length;
    },
    // The real core also counts draws and the softmax; T²·d is enough to tell small from large.
    mapMultiplyAdds: ({ T, d }) => T ** 2 * d,
    attentionMap(state) {
      calls.push(state);
      const refused = refuse(state);
      if (refused) throw refused;
      const tokens = [...state.text];
      if (tokens.length > 50)
        throw refusal(`the text makes ${tokens.length} tokens; at most 50`, 'text');
      const T = tokens.length;
      const weights = new Float32Array(T * T).fill(1 / T);
      return { tokens, T, d: state.d, weights, scaleFactor: 1 / Math.sqrt(state.d) };
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
