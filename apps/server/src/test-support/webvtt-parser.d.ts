// Types for the parts of webvtt-parser (W3C's reference parser, untyped CommonJS) that tests use.
declare module 'webvtt-parser' {
  export interface WebVttNode {
    type: 'text' | 'object';
    name?: string;
    value?: string;
    children?: WebVttNode[];
  }
  export interface WebVttCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
    tree: { children: WebVttNode[] };
  }
  export interface WebVttParseResult {
    cues: WebVttCue[];
    errors: { message: string; line: number; col?: number }[];
  }
  export class WebVTTParser {
    constructor(entities?: Record<string, string>);
    parse(input: string, mode?: 'metadata' | 'chapters'): WebVttParseResult;
  }
  const webvtt: { WebVTTParser: typeof WebVTTParser };
  export default webvtt;
}
