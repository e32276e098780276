/** How many rows of each kind a seed wrote (its summary table). */
export interface RowCounts {
  users: number;
  images: number;
  hubs: number;
  memberships: number;
  posts: number;
  postLikes: number;
  series: number;
  follows: number;
  chapters: number;
  chapterPages: number;
  chapterLikes: number;
  comments: number;
  commentLikes: number;
  notifications: number;
}

export const noRows = (): RowCounts => ({
  users: 0,
  images: 0,
  hubs: 0,
  memberships: 0,
  posts: 0,
  postLikes: 0,
  series: 0,
  follows: 0,
  chapters: 0,
  chapterPages: 0,
  chapterLikes: 0,
  comments: 0,
  commentLikes: 0,
  notifications: 0,
});
