export interface Chapter {
  title: string;
  words: number;
}

/** A story is an ordered list of chapters with a reading-time estimate. */
export class Story {
  private readonly chapters: Chapter[] = [];

  constructor(readonly name: string) {}

  addChapter(chapter: Chapter): this {
    this.chapters.push(chapter);
    return this;
  }

  /** Minutes to read at `wordsPerMinute`, rounded up. */
  readingTime(wordsPerMinute = 230): number {
    const total = this.chapters.reduce((n, c) => n + c.words, 0);
    return Math.ceil(total / wordsPerMinute);
  }
}
