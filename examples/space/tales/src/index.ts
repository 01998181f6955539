import { Story } from './story';
import { rateLimited } from './throttle';

export const publish = rateLimited((story: Story) => `${story.name}: ${story.readingTime()} min`, 2);
export { Story };
