import { createContext } from 'react';

/**
 * The element of the answer's and history's section headings (Sources, Your previous
 * questions): one level below the heading of what holds them. The page, whose title is the h1,
 * sets h2; elsewhere they sit under a card's or an add-on's h2. Their look stays the same.
 */
export const SectionHeadingLevel = createContext<'h2' | 'h3' | 'h4'>('h3');
