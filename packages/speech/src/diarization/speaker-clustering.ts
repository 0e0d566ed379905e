/**
 * Agglomerative clustering of speaker embeddings, as pyannote's pipeline does it: a dendrogram
 * (average linkage on cosine distance), cut at a distance threshold unless a number of speakers is
 * asked for; clusters too small to be a speaker are then given to the nearest large one.
 */
export interface ClusteringOptions {
  /** Cosine distance under which two groups of embeddings are one speaker. */
  threshold: number;
  /** Clusters smaller than this (in embeddings) are not speakers of their own. */
  minClusterSize: number;
  minClusters: number;
  maxClusters: number;
}

interface Merge {
  a: number;
  b: number;
  height: number;
}

/** Unit-length copy of a vector (cosine similarity becomes a dot product). */
export function normalised(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return vector.map((value) => value / norm);
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

/**
 * Average-linkage dendrogram by the nearest-neighbour chain algorithm: O(n²) time and memory.
 * Merges come back sorted by height (average linkage never inverts).
 */
function averageLinkage(embeddings: readonly Float32Array[]): Merge[] {
  const n = embeddings.length;
  const distance = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = 1 - dot(embeddings[i] ?? new Float32Array(), embeddings[j] ?? new Float32Array());
      distance[i * n + j] = d;
      distance[j * n + i] = d;
    }
  }
  const size = new Array<number>(n).fill(1);
  const active = new Array<boolean>(n).fill(true);
  const merges: Merge[] = [];
  const chain: number[] = [];
  let remaining = n;
  while (remaining > 1) {
    if (chain.length === 0) chain.push(active.indexOf(true));
    const top = chain[chain.length - 1] ?? 0;
    const previous = chain.length > 1 ? chain[chain.length - 2] : undefined;
    let nearest = -1;
    let nearestDistance = Infinity;
    for (let j = 0; j < n; j++) {
      if (j === top || !active[j]) continue;
      const d = distance[top * n + j] ?? Infinity;
      // Ties favour the previous element of the chain, which guarantees termination.
      if (d < nearestDistance || (d === nearestDistance && j === previous)) {
        nearest = j;
        nearestDistance = d;
      }
    }
    if (nearest === previous) {
      chain.pop();
      chain.pop();
      const a = Math.min(top, nearest);
      const b = Math.max(top, nearest);
      merges.push({ a, b, height: nearestDistance });
      // Lance–Williams update for average linkage; the merged group keeps index a.
      const sa = size[a] ?? 1;
      const sb = size[b] ?? 1;
      for (let j = 0; j < n; j++) {
        if (!active[j] || j === a || j === b) continue;
        const d = ((distance[a * n + j] ?? 0) * sa + (distance[b * n + j] ?? 0) * sb) / (sa + sb);
        distance[a * n + j] = d;
        distance[j * n + a] = d;
      }
      size[a] = sa + sb;
      active[b] = false;
      remaining--;
    } else {
      chain.push(nearest);
    }
  }
  return merges.sort((x, y) => x.height - y.height);
}

/** Cluster index of each embedding after the first `count` merges (0, 1, 2… in first-seen order). */
function cut(n: number, merges: readonly Merge[], count: number): number[] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root] ?? root;
    while (parent[i] !== root) {
      const next = parent[i] ?? root;
      parent[i] = root;
      i = next;
    }
    return root;
  };
  for (const merge of merges.slice(0, count)) parent[find(merge.b)] = find(merge.a);
  const labels = new Map<number, number>();
  return Array.from({ length: n }, (_, i) => {
    const root = find(i);
    if (!labels.has(root)) labels.set(root, labels.size);
    return labels.get(root) ?? 0;
  });
}

function largeClusterCount(labels: readonly number[], minSize: number): number {
  const counts = new Map<number, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return [...counts.values()].filter((count) => count >= minSize).length;
}

/** Mean of unit embeddings per cluster, renormalised. */
export function centroids(embeddings: readonly Float32Array[], labels: readonly number[]): Float32Array[] {
  const clusters = Math.max(-1, ...labels) + 1;
  const dims = embeddings[0]?.length ?? 0;
  const sums = Array.from({ length: clusters }, () => new Float32Array(dims));
  embeddings.forEach((embedding, i) => {
    const sum = sums[labels[i] ?? 0];
    if (sum) for (let d = 0; d < dims; d++) sum[d] = (sum[d] ?? 0) + (embedding[d] ?? 0);
  });
  return sums.map(normalised);
}

/**
 * Speaker centroids found in `embeddings` (unit vectors). The number of large clusters is the
 * threshold's, brought into [minClusters, maxClusters] by cutting the dendrogram elsewhere.
 */
export function clusterSpeakers(
  embeddings: readonly Float32Array[],
  options: ClusteringOptions,
): Float32Array[] {
  const n = embeddings.length;
  if (n === 0) return [];
  if (n === 1) return [embeddings[0] ?? new Float32Array()];
  const merges = averageLinkage(embeddings);
  // Like pyannote: a cluster is large from 10% of the embeddings, up to minClusterSize.
  const minSize = Math.min(options.minClusterSize, Math.max(1, Math.round(0.1 * n)));
  const byThreshold = merges.filter((merge) => merge.height < options.threshold).length;
  let labels = cut(n, merges, byThreshold);
  const found = largeClusterCount(labels, minSize);
  const target = Math.min(Math.max(found, options.minClusters), options.maxClusters, n);
  if (target !== found) {
    // The cut whose number of large clusters is the target, nearest the threshold's own cut.
    let best = { count: byThreshold, clusters: found };
    const candidates = Array.from({ length: n }, (_, count) => count).sort(
      (x, y) => Math.abs(x - byThreshold) - Math.abs(y - byThreshold),
    );
    for (const count of candidates) {
      const clusters = largeClusterCount(cut(n, merges, count), minSize);
      if (Math.abs(clusters - target) < Math.abs(best.clusters - target)) best = { count, clusters };
      if (clusters === target) break;
    }
    labels = cut(n, merges, best.count);
  }
  // Small clusters join the nearest large one.
  const counts = new Map<number, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  const all = centroids(embeddings, labels);
  const large = all.filter((_, label) => (counts.get(label) ?? 0) >= minSize);
  if (large.length === 0) return all;
  const assigned = embeddings.map((embedding) => nearest(embedding, large));
  return centroids(embeddings, assigned).filter((_, label) => assigned.includes(label));
}

function nearest(embedding: Float32Array, candidates: readonly Float32Array[]): number {
  let best = 0;
  let bestSimilarity = -Infinity;
  candidates.forEach((candidate, index) => {
    const similarity = dot(embedding, candidate);
    if (similarity > bestSimilarity) {
      best = index;
      bestSimilarity = similarity;
    }
  });
  return best;
}

/**
 * Gives each local speaker of one window a speaker (centroid index), two local speakers never the
 * same one when there are enough speakers: the segmentation network already told them apart.
 */
export function assignWindowSpeakers(
  embeddings: readonly Float32Array[],
  speakerCentroids: readonly Float32Array[],
): number[] {
  const similarity = embeddings.map((embedding) =>
    speakerCentroids.map((centroid) => dot(embedding, centroid)),
  );
  const k = speakerCentroids.length;
  if (embeddings.length > k) return embeddings.map((embedding) => nearest(embedding, speakerCentroids));
  let best: number[] = [];
  let bestScore = -Infinity;
  const choose = (row: number, taken: number[], score: number): void => {
    if (row === embeddings.length) {
      if (score > bestScore) {
        bestScore = score;
        best = [...taken];
      }
      return;
    }
    for (let c = 0; c < k; c++) {
      if (taken.includes(c)) continue;
      taken.push(c);
      choose(row + 1, taken, score + (similarity[row]?.[c] ?? 0));
      taken.pop();
    }
  };
  choose(0, [], 0);
  return best;
}
