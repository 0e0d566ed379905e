import { useSearchParams } from 'react-router';

/** The page of a paged list in the address (?page=2), so a reload or a shared link shows the same page. */
export function usePageParam(): [number, (page: number) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const parsed = Number.parseInt(searchParams.get('page') ?? '1', 10);
  const page = Number.isSafeInteger(parsed) && parsed >= 1 ? parsed : 1;
  const setPage = (next: number) =>
    setSearchParams((params) => {
      if (next === 1) params.delete('page');
      else params.set('page', String(next));
      return params;
    });
  return [page, setPage];
}
